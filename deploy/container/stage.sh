#!/bin/sh
# SPDX-License-Identifier: MIT
# stage.sh CONCLAVED DIR: lays out in DIR/rootfs the files of the conclaved
# image, and an empty DIR/data for its volume: the binary (stripped), every
# shared library it or libwebsockets' libuv plugin (loaded with dlopen)
# needs, at the paths the dynamic loader looks in, and a passwd and group
# naming the user it runs as. No package manager, no shell, nothing else.
set -eu
bin=$1
dir=$2
root=$dir/rootfs
rm -rf "$dir"
mkdir -p "$root/usr/bin" "$root/etc" "$dir/data"
cp "$bin" "$root/usr/bin/conclaved"
strip --strip-unneeded "$root/usr/bin/conclaved"

# The libuv plugin of libwebsockets is opened by path at run time.
plugin=$(ldd "$bin" | awk '/libwebsockets\.so/ {print $3}')
plugin=$(dirname "$(readlink -f "$plugin")")/libwebsockets-evlib_uv.so
test -f "$plugin" || { echo "stage.sh: no $plugin (apt-get install libwebsockets-evlib-uv)" >&2; exit 1; }

# Each library under its soname, in the directory its real file is in
# (/usr/lib/<multiarch>; /lib is a link to usr/lib, as on Debian).
copy_libs() {
    ldd "$1" | while read -r name arrow path rest; do
        case "$name" in
        linux-vdso.so.*) continue ;;
        /*) src=$name; dest=$name ;;   # the loader, at the path in the ELF
        *) src=$path; dest=$(dirname "$(readlink -f "$path")")/$name ;;
        esac
        mkdir -p "$root$(dirname "$dest")"
        cp -L "$src" "$root$dest"
    done
}
copy_libs "$bin"
copy_libs "$plugin"
mkdir -p "$root$(dirname "$plugin")"
cp -L "$plugin" "$root$plugin"
if [ -d "$root/lib" ] && [ ! -L "$root/lib" ]; then
    cp -a "$root/lib/." "$root/usr/lib/"
    rm -rf "$root/lib"
fi
ln -s usr/lib "$root/lib"

echo "conclave:x:10001:10001:conclave:/data:/nonexistent" > "$root/etc/passwd"
echo "conclave:x:10001:" > "$root/etc/group"
