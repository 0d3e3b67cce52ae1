#!/bin/sh
# SPDX-License-Identifier: MIT
# The rules cores are pure (DESIGN boundary 1): nothing under server/games
# may name the event loop, sockets, clocks, the C library's random numbers,
# the environment or stdio file I/O. Only server/net and server/main.c may
# include uv.h. Prints each offending line and fails when there is one.
top=${1:-.}
status=0
bad=$(grep -rnE '#include *<(uv|sys/socket|netinet/[a-z]+|arpa/inet|time|sys/time|unistd|pthread)\.h>|\b(rand|srand|random|time|clock_gettime|gettimeofday|getenv|fopen|fread|fwrite|fprintf|printf|puts|open|read|write)\s*\(' \
      "$top/server/games" --include='*.c' --include='*.h' \
      | grep -vE '^\S+:[0-9]+:\s*(/\*|\*)' )
if [ -n "$bad" ]; then
    echo "server/games must stay pure; found:"
    echo "$bad"
    status=1
fi
uv=$(grep -rln '#include *<uv.h>' "$top/server" "$top/protocol" "$top/client-cli" \
     | grep -vE '/server/net/|/server/store/|/server/main.c$')
if [ -n "$uv" ]; then
    echo "only server/net, server/store (thread pool) and server/main.c may include uv.h; found in:"
    echo "$uv"
    status=1
fi
jansson=$(grep -rln '#include *<jansson.h>' "$top/server/games" \
          | grep -E '_rules\.c$|_state\.c$|_legal\.c$' )
if [ -n "$jansson" ]; then
    echo "note: rule files that include jansson (STYLE rule 6 keeps JSON in codec/view):"
    echo "$jansson"
fi
[ $status -eq 0 ] && echo "purity: server/games and the libuv boundary hold"
exit $status
