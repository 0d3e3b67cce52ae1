#!/bin/sh
# SPDX-License-Identifier: MIT
# The Sorcerers card table is generated: sorc_cards.c must be exactly what
# data/gen_cards.py makes from data/sorcerers-cards.json. Regenerates into a
# temporary file and shows the diff when the committed file differs (edited
# by hand, or the JSON or the generator changed without a regeneration).
# Usage: check_generated.sh PYTHON SOURCE_ROOT
python=${1:?python} top=${2:?source root}
dir=$top/server/games/sorcerers
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
if ! "$python" "$dir/data/gen_cards.py" "$dir/data/sorcerers-cards.json" >"$tmp"; then
    echo "check_generated: gen_cards.py failed"
    exit 1
fi
diff -u "$dir/sorc_cards.c" "$tmp" | sed "s|$tmp|regenerated|"
if cmp -s "$dir/sorc_cards.c" "$tmp"; then
    echo "check_generated: sorc_cards.c is what gen_cards.py makes"
    # The client's card texts come from the same data.
    cli=$top/client-cli/render
    if ! "$python" "$cli/gen_sorc_texts.py" "$dir/data/sorcerers-cards.json" >"$tmp"; then
        echo "check_generated: gen_sorc_texts.py failed"
        exit 1
    fi
    diff -u "$cli/sorc_texts.c" "$tmp" | sed "s|$tmp|regenerated|"
    if cmp -s "$cli/sorc_texts.c" "$tmp"; then
        echo "check_generated: sorc_texts.c is what gen_sorc_texts.py makes"
        exit 0
    fi
    echo "check_generated: sorc_texts.c differs from gen_sorc_texts.py's output (diff above);"
    echo "  regenerate: python3 client-cli/render/gen_sorc_texts.py" \
         "server/games/sorcerers/data/sorcerers-cards.json > client-cli/render/sorc_texts.c"
    exit 1
fi
echo "check_generated: sorc_cards.c differs from gen_cards.py's output (diff above);"
echo "  regenerate: cd server/games/sorcerers/data &&" \
     "python3 gen_cards.py sorcerers-cards.json > ../sorc_cards.c"
exit 1
