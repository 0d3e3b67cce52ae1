#!/bin/sh
# SPDX-License-Identifier: MIT
# The Sorcerers card tables are generated from data/sorcerers-cards.json:
# the rules core's sorc_cards.c by data/gen_cards.py, and the terminal
# client's card texts client-cli/render/sorc_texts.c by gen_sorc_texts.py.
# Each must be exactly what its generator makes: regenerates into a
# temporary file and shows the diff when the committed file differs (edited
# by hand, or the JSON or the generator changed without a regeneration).
# The Res Arcana card table server/games/arcana/arcana_cards.c is generated
# the same way from data/arcana-cards.json by data/gen_cards.py, and the
# browser's card texts web/games/sorcerers_texts.js and arcana_texts.js by
# the generators beside them.
# Usage: check_generated.sh PYTHON SOURCE_ROOT
python=${1:?python} top=${2:?source root}
json=$top/server/games/sorcerers/data/sorcerers-cards.json
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

# check GENERATOR COMMITTED [JSON] (paths below the source root)
check() {
    name=$(basename "$2")
    if ! "$python" "$top/$1" "${3:-$json}" >"$tmp"; then
        echo "check_generated: $(basename "$1") failed"
        return 1
    fi
    diff -u "$top/$2" "$tmp" | sed "s|$tmp|regenerated|"
    if cmp -s "$top/$2" "$tmp"; then
        echo "check_generated: $name is what $(basename "$1") makes"
        return 0
    fi
    echo "check_generated: $name differs from $(basename "$1")'s output (diff above);"
    echo "  regenerate: python3 $1 ${3:-$json} > $2"
    return 1
}

# The client's Res Arcana card texts client-cli/render/arcana_texts.c come
# from the game's card data by gen_arcana_texts.py (checked once the data
# is in the tree).
arcana_json=$top/server/games/arcana/data/arcana-cards.json
if [ -f "$arcana_json" ]; then
    check client-cli/render/gen_arcana_texts.py client-cli/render/arcana_texts.c \
        "$arcana_json" || exit 1
    check web/games/gen_arcana_texts.py web/games/arcana_texts.js "$arcana_json" || exit 1
else
    echo "check_generated: server/games/arcana/data/arcana-cards.json is not in the tree;" \
        "arcana_texts.c not checked"
fi

check server/games/sorcerers/data/gen_cards.py server/games/sorcerers/sorc_cards.c &&
    check client-cli/render/gen_sorc_texts.py client-cli/render/sorc_texts.c &&
    check web/games/gen_sorcerers_texts.py web/games/sorcerers_texts.js &&
    check server/games/arcana/data/gen_cards.py server/games/arcana/arcana_cards.c \
        "$top/server/games/arcana/data/arcana-cards.json"
