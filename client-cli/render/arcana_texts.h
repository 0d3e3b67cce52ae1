/* SPDX-License-Identifier: MIT */
/*
 * arcana_texts.h - what each Res Arcana card is and does, for `card NAME`
 * and for the renderer's names, in English and in Simplified Chinese:
 * generated into arcana_texts.c from the game's card data by
 * gen_arcana_texts.py.
 */
#ifndef CONCLAVE_ARCANA_TEXTS_H
#define CONCLAVE_ARCANA_TEXTS_H

#include <stddef.h>

struct arcana_text {
    const char *id, *name;
    const char *kind;    /* "mage", "artifact", "magic_item", "monument", "place_of_power" */
    const char *cost;    /* printed cost, short: "E6", "D2 any3", "0"; "" for none */
    const char *actions; /* the indexes of its action powers, e.g. "01"; "" for none */
    const char *reacts;  /* the indexes of its React powers */
    const char *text;    /* kind, cost, VP, abilities and powers in words, lines split by '\n' */
    const char *text_zh; /* the same in zh-CN after the name, not wrapped; "@{id}": a card's name */
};

extern const struct arcana_text arcana_texts[];
extern const size_t arcana_ntexts;

#endif
