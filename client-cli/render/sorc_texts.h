/* SPDX-License-Identifier: MIT */
/*
 * sorc_texts.h - what each Sorcerers card is, for `card NAME`, in English
 * and in Simplified Chinese: generated into sorc_texts.c from the game's
 * card data by gen_sorc_texts.py.
 */
#ifndef CONCLAVE_SORC_TEXTS_H
#define CONCLAVE_SORC_TEXTS_H

#include <stddef.h>

struct sorc_text {
    const char *id, *name, *type;
    int power;
    const char *classes;                        /* comma-separated spell classes, "" for none */
    const char *note;                           /* its ability, as the card data words it */
    const char *type_zh, *classes_zh, *note_zh; /* the same in zh-CN ("、" between classes) */
};

extern const struct sorc_text sorc_texts[];
extern const size_t sorc_ntexts;

#endif
