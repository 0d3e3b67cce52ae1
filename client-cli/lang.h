/* SPDX-License-Identifier: MIT */
/*
 * lang.h - the languages of the `conclave` client: English and Simplified
 * Chinese (zh-CN). It owns the reader's language (chosen from --lang,
 * $CONCLAVE_LANG or the terminal's locale, switchable while playing), the
 * one message table every human-facing string goes through, the games'
 * message catalogues (lang/<game>.json, embedded at build time) that write
 * a view's log in the reader's language, and the width of text on a
 * terminal (a Chinese character takes two columns). It never changes what
 * the client sends or what the scripted mode prints: views and protocol
 * lines have no language.
 */
#ifndef CONCLAVE_LANG_H
#define CONCLAVE_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

enum cli_lang {
    CLI_LANG_EN,
    CLI_LANG_ZH_CN,
};

/* The language `name` names ("en", "zh-CN"; case and '-' or '_' do not
 * matter, "zh" and "zh-Hans" are zh-CN) into *ret. 0, or -1 when it names
 * none of ours. */
int cli_lang_parse(const char *name, enum cli_lang *ret);

/* The language the terminal's locale asks for: the first of $LC_ALL,
 * $LC_MESSAGES and $LANG that is set and not empty; zh_CN, zh_SG,
 * zh_Hans and a bare zh are zh-CN, anything else (or none) English. */
enum cli_lang cli_lang_from_locale(void);

/* Chooses the language at start: `flag` (the --lang value, NULL when not
 * given), else $CONCLAVE_LANG, else the locale. 0, or -1 when `flag`
 * names no language of ours (nothing is changed). A $CONCLAVE_LANG that
 * names none is passed over with a warning on stderr. */
int cli_lang_init(const char *flag);

void cli_lang_set(enum cli_lang lang);
enum cli_lang cli_lang_get(void);

/* "en" or "zh-CN". */
const char *cli_lang_name(enum cli_lang lang);

/* ---- The message table ---- */

/* `en`, an English string of the client, in the reader's language: itself
 * in English, its entry of the zh-CN table otherwise (itself when the table
 * has none). The result is static. A format stays a format with the same
 * conversions in the same order. */
const char *cli_tr(const char *en) __attribute__((format_arg(1)));

/* The gettext convention: _() around a string literal translates it where
 * it is used; N_() marks a string of a table, translated later by _() of
 * the table's entry. */
#define _(s) cli_tr(s)
#define N_(s) s

/* `id` when it is one of the `n` strings of `words` (each marked with
 * N_()): that string in the reader's language; NULL when it is none of
 * them (or NULL). For the ids a view or a reply holds (a phase, a kind)
 * that the client shows as words. */
const char *cli_tr_among(const char *id, const char *const *words, size_t n);

#define CLI_TR_AMONG(id, words) cli_tr_among((id), (words), sizeof(words) / sizeof((words)[0]))

/* One entry of the zh-CN table (lang_zh.c), and the table. */
struct cli_tr_pair {
    const char *en, *zh;
};

extern const struct cli_tr_pair cli_zh_cn[];
extern const size_t cli_zh_cn_n;

/* ---- Width on a terminal ---- */

/* The columns UTF-8 text `s` takes on a terminal: an ANSI escape sequence
 * none, a combining mark none, an East Asian wide or fullwidth character
 * (CJK, Hangul, fullwidth forms) two, any other character one. */
int cli_width(const char *s);

/* The columns of the first `n` bytes of `s`. */
int cli_width_n(const char *s, size_t n);

/* The byte length of the UTF-8 character at `s` (1 for a stray byte, 0 at
 * the end), and its columns in *ret_width (may be NULL). */
size_t cli_char(const char *s, int *ret_width);

/* `s` followed by spaces up to `width` columns, as "%-*s" would pad it if
 * every character took one column; written into buf (truncated to `len`)
 * and returned. */
const char *cli_pad(char *buf, size_t len, const char *s, int width);

/* ---- The games' catalogues ---- */

struct cli_cat_msg {
    const char *key, *zh; /* the zh-CN template */
};

struct cli_cat_term {
    const char *type, *en, *zh;
};

struct cli_cat_card {
    const char *id, *en, *zh; /* zh: NULL when the catalogue has none */
    const char *source;       /* "seed" (the game's Chinese rulebook) or "ours" */
};

struct cli_catalogue {
    const char *game;
    const struct cli_cat_msg *msgs;
    size_t nmsgs;
    const struct cli_cat_term *terms;
    size_t nterms;
    const struct cli_cat_card *cards;
    size_t ncards;
};

/* The catalogues, generated from lang/<game>.json by gen_catalogue.py. */
extern const struct cli_catalogue cli_catalogues[];
extern const size_t cli_ncatalogues;

/* Line `i` of the log of `view` (borrowed) of `game`, in the reader's
 * language: in zh-CN, its message (the view's `log_keys`, line `i`) with
 * the catalogue's template filled in, the arguments that the template
 * types looked up among the catalogue's terms and cards (left as they are
 * when it has none); otherwise, and whenever the message is missing or
 * unknown or does not fit its template, the `log` line as it is. The
 * result lives in buf or in the view. "" when the view has no such line. */
const char *cli_log_line(const char *game, const json_t *view, size_t i, char *buf, size_t len);

/* The card `key` of `game` (its id, or its English name) in the reader's
 * language: the catalogue's zh-CN name in zh-CN, when it has one; NULL
 * otherwise (the caller keeps its English). */
const char *cli_card_name(const char *game, const char *key);

/* The card of `game` whose zh-CN name is `name`, or, with `prefix`, the
 * only card whose zh-CN name starts with it (spaces left out); NULL when
 * none is, or several are. Static. */
const struct cli_cat_card *cli_card_by_zh(const char *game, const char *name, bool prefix);

/* True when every byte of `s` is ASCII. */
bool cli_is_ascii(const char *s);

#endif
