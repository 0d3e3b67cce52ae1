/* SPDX-License-Identifier: MIT */
/*
 * lang.c - the reader's language, the message table, text width on a
 * terminal and the games' log messages in the reader's language. What
 * changes with the language is what a person reads; requests, views and
 * the lines of the scripted mode never go through here.
 */
#include "lang.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static enum cli_lang current = CLI_LANG_EN;

/* ---- The language ---- */

int cli_lang_parse(const char *name, enum cli_lang *ret)
{
    static const struct {
        const char *name;
        enum cli_lang lang;
    } names[] = {
        {"en", CLI_LANG_EN},       {"en-us", CLI_LANG_EN},      {"en-gb", CLI_LANG_EN},
        {"english", CLI_LANG_EN},  {"zh-cn", CLI_LANG_ZH_CN},   {"zh", CLI_LANG_ZH_CN},
        {"zh-sg", CLI_LANG_ZH_CN}, {"zh-hans", CLI_LANG_ZH_CN}, {"zh-hans-cn", CLI_LANG_ZH_CN},
    };
    char folded[16];
    size_t n = name ? strlen(name) : 0;

    if (n == 0 || n >= sizeof(folded)) {
        return -1;
    }
    for (size_t i = 0; i <= n; i++) {
        folded[i] = name[i] == '_' ? '-' : name[i];
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcasecmp(folded, names[i].name) == 0) {
            *ret = names[i].lang;
            return 0;
        }
    }
    return -1;
}

/* True when locale name `v` (such as "zh_CN.UTF-8") is Simplified
 * Chinese. */
static bool locale_is_zh_cn(const char *v)
{
    static const char *const prefixes[] = {"zh_CN", "zh_SG", "zh_Hans",
                                           "zh-CN", "zh-SG", "zh-Hans"};

    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (strncmp(v, prefixes[i], strlen(prefixes[i])) == 0) {
            return true;
        }
    }
    /* A bare "zh", with or without a codeset or modifier. */
    return strncmp(v, "zh", 2) == 0 && (v[2] == '\0' || v[2] == '.' || v[2] == '@');
}

enum cli_lang cli_lang_from_locale(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};

    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            return locale_is_zh_cn(v) ? CLI_LANG_ZH_CN : CLI_LANG_EN;
        }
    }
    return CLI_LANG_EN;
}

int cli_lang_init(const char *flag)
{
    enum cli_lang lang;
    const char *env = getenv("CONCLAVE_LANG");

    if (flag) {
        if (cli_lang_parse(flag, &lang) != 0) {
            return -1;
        }
        current = lang;
        return 0;
    }
    current = cli_lang_from_locale();
    if (env && *env) {
        if (cli_lang_parse(env, &lang) == 0) {
            current = lang;
        } else {
            fprintf(stderr,
                    _("conclave: CONCLAVE_LANG=%s is not a language of this client (en, "
                      "zh-CN); it is left aside\n"),
                    env);
        }
    }
    return 0;
}

void cli_lang_set(enum cli_lang lang)
{
    current = lang;
}

enum cli_lang cli_lang_get(void)
{
    return current;
}

const char *cli_lang_name(enum cli_lang lang)
{
    return lang == CLI_LANG_ZH_CN ? "zh-CN" : "en";
}

/* ---- The message table ---- */

/* The zh-CN table in the order of its English, for bsearch; made at the
 * first lookup and kept for the life of the process. */
static const struct cli_tr_pair **zh_sorted;

static int pair_cmp(const void *a, const void *b)
{
    const struct cli_tr_pair *const *x = a;
    const struct cli_tr_pair *const *y = b;

    return strcmp((*x)->en, (*y)->en);
}

static int key_cmp(const void *key, const void *elem)
{
    const struct cli_tr_pair *const *p = elem;

    return strcmp(key, (*p)->en);
}

const char *cli_tr(const char *en)
{
    if (current == CLI_LANG_EN || !en) {
        return en;
    }
    if (!zh_sorted) {
        zh_sorted = malloc(sizeof(*zh_sorted) * (cli_zh_cn_n ? cli_zh_cn_n : 1));
        if (!zh_sorted) {
            return en;
        }
        for (size_t i = 0; i < cli_zh_cn_n; i++) {
            zh_sorted[i] = &cli_zh_cn[i];
        }
        qsort(zh_sorted, cli_zh_cn_n, sizeof(*zh_sorted), pair_cmp);
    }
    const struct cli_tr_pair *const *hit =
        bsearch(en, zh_sorted, cli_zh_cn_n, sizeof(*zh_sorted), key_cmp);
    return hit ? (*hit)->zh : en;
}

const char *cli_tr_among(const char *id, const char *const *words, size_t n)
{
    for (size_t i = 0; id && i < n; i++) {
        if (strcmp(id, words[i]) == 0) {
            return cli_tr(words[i]);
        }
    }
    return NULL;
}

/* ---- Width on a terminal ---- */

struct range {
    unsigned lo, hi;
};

/* East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, the
 * blocks a terminal draws two columns wide). */
static const struct range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD},
    {0x30000, 0x3FFFD},
};

/* Combining marks and zero-width characters: no column of their own. */
static const struct range zero[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x200B, 0x200F},
    {0x2028, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D},
    {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
};

static bool in_ranges(unsigned c, const struct range *r, size_t n)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid].lo) {
            hi = mid;
        } else if (c > r[mid].hi) {
            lo = mid + 1;
        } else {
            return true;
        }
    }
    return false;
}

size_t cli_char(const char *s, int *ret_width)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned c;
    size_t n;
    int w = 1;

    if (!*p) {
        if (ret_width) {
            *ret_width = 0;
        }
        return 0;
    }
    if (*p < 0x80) {
        n = 1;
        c = *p;
    } else if ((*p & 0xE0) == 0xC0) {
        n = 2;
        c = *p & 0x1F;
    } else if ((*p & 0xF0) == 0xE0) {
        n = 3;
        c = *p & 0x0F;
    } else if ((*p & 0xF8) == 0xF0) {
        n = 4;
        c = *p & 0x07;
    } else {
        n = 1;
        c = 0xFFFD;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            n = 1; /* a sequence cut short: the byte alone */
            c = 0xFFFD;
            break;
        }
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c >= 0x300 && in_ranges(c, zero, sizeof(zero) / sizeof(zero[0]))) {
        w = 0;
    } else if (c >= 0x1100 && in_ranges(c, wide, sizeof(wide) / sizeof(wide[0]))) {
        w = 2;
    }
    if (ret_width) {
        *ret_width = w;
    }
    return n;
}

int cli_width_n(const char *s, size_t n)
{
    int w = 0;
    size_t i = 0;

    while (s && i < n && s[i]) {
        if (s[i] == '\033') {
            /* An escape sequence (colour): up to its final letter. */
            size_t k = i + 1;
            while (k < n && s[k] &&
                   !((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z'))) {
                k++;
            }
            i = k < n && s[k] ? k + 1 : k;
            continue;
        }
        int cw;
        size_t step = cli_char(s + i, &cw);
        w += cw;
        i += step;
    }
    return w;
}

int cli_width(const char *s)
{
    return cli_width_n(s, s ? strlen(s) : 0);
}

const char *cli_pad(char *buf, size_t len, const char *s, int width)
{
    int w = cli_width(s);
    size_t n;

    if (len == 0) {
        return "";
    }
    snprintf(buf, len, "%s", s ? s : "");
    n = strlen(buf);
    while (w < width && n + 1 < len) {
        buf[n++] = ' ';
        w++;
    }
    buf[n] = '\0';
    return buf;
}

bool cli_is_ascii(const char *s)
{
    for (; s && *s; s++) {
        if ((unsigned char)*s >= 0x80) {
            return false;
        }
    }
    return true;
}

/* ---- The games' catalogues ---- */

static const struct cli_catalogue *catalogue_of(const char *game)
{
    for (size_t i = 0; game && i < cli_ncatalogues; i++) {
        if (strcmp(cli_catalogues[i].game, game) == 0) {
            return &cli_catalogues[i];
        }
    }
    return NULL;
}

/* The card of `cat` whose id or English name is `key`, or NULL. */
static const struct cli_cat_card *card_of(const struct cli_catalogue *cat, const char *key)
{
    for (size_t i = 0; cat && key && i < cat->ncards; i++) {
        if (strcmp(cat->cards[i].id, key) == 0 ||
            (cat->cards[i].en && strcmp(cat->cards[i].en, key) == 0)) {
            return &cat->cards[i];
        }
    }
    return NULL;
}

const char *cli_card_name(const char *game, const char *key)
{
    if (current != CLI_LANG_ZH_CN) {
        return NULL;
    }
    const struct cli_cat_card *c = card_of(catalogue_of(game), key);
    return c && c->zh && *c->zh ? c->zh : NULL;
}

/* `s` with its spaces left out, into buf. */
static const char *unspaced(const char *s, char *buf, size_t len)
{
    size_t n = 0;

    for (; *s && n + 1 < len; s++) {
        if (*s != ' ' && *s != '\t') {
            buf[n++] = *s;
        }
    }
    buf[n] = '\0';
    return buf;
}

const struct cli_cat_card *cli_card_by_zh(const char *game, const char *name, bool prefix)
{
    const struct cli_catalogue *cat = catalogue_of(game);
    const struct cli_cat_card *found = NULL;
    char want[256];
    char have[256];
    int count = 0;

    if (!cat || !name) {
        return NULL;
    }
    unspaced(name, want, sizeof(want));
    if (!want[0]) {
        return NULL;
    }
    for (size_t i = 0; i < cat->ncards; i++) {
        const struct cli_cat_card *c = &cat->cards[i];
        if (!c->zh) {
            continue;
        }
        unspaced(c->zh, have, sizeof(have));
        if (strcmp(have, want) == 0) {
            return c;
        }
        if (prefix && strncmp(have, want, strlen(want)) == 0) {
            found = c;
            count++;
        }
    }
    return count == 1 ? found : NULL;
}

/* Argument `arg` of type `type` in zh-CN: a term of the catalogue, or a
 * card by its English name (or id); `arg` itself when it has neither. */
static const char *term_zh(const struct cli_catalogue *cat, const char *type, size_t tlen,
                           const char *arg)
{
    if (tlen == 4 && strncmp(type, "card", 4) == 0) {
        const struct cli_cat_card *c = card_of(cat, arg);
        return c && c->zh && *c->zh ? c->zh : arg;
    }
    for (size_t i = 0; i < cat->nterms; i++) {
        const struct cli_cat_term *t = &cat->terms[i];
        if (strlen(t->type) == tlen && strncmp(t->type, type, tlen) == 0 &&
            strcmp(t->en, arg) == 0) {
            return t->zh;
        }
    }
    return arg;
}

/* Fills template `tpl` with the strings of `msg` after its key into buf:
 * {i} is argument i, {i:type} argument i looked up as a term of that type.
 * 0, or -1 when an argument is missing or the line does not fit. */
static int fill(const struct cli_catalogue *cat, const char *tpl, const json_t *msg, char *buf,
                size_t len)
{
    size_t n = 0;

    for (const char *p = tpl; *p;) {
        const char *piece = p;
        size_t plen = 1;
        if (*p == '{' && p[1] >= '0' && p[1] <= '9') {
            char *end;
            unsigned long i = strtoul(p + 1, &end, 10);
            const char *type = NULL;
            size_t tlen = 0;
            if (*end == ':') {
                type = end + 1;
                tlen = strcspn(type, "}");
                end = (char *)type + tlen;
            }
            if (*end == '}') {
                const char *arg = json_string_value(json_array_get(msg, i + 1));
                if (!arg) {
                    return -1;
                }
                piece = type ? term_zh(cat, type, tlen, arg) : arg;
                plen = strlen(piece);
                p = end + 1;
            } else {
                p++;
            }
        } else {
            p++;
        }
        if (n + plen >= len) {
            return -1;
        }
        memcpy(buf + n, piece, plen);
        n += plen;
    }
    buf[n] = '\0';
    return 0;
}

const char *cli_log_line(const char *game, const json_t *view, size_t i, char *buf, size_t len)
{
    const char *line = json_string_value(json_array_get(json_object_get(view, "log"), i));
    const json_t *msg = json_array_get(json_object_get(view, "log_keys"), i);
    const char *key = json_string_value(json_array_get(msg, 0));
    const struct cli_catalogue *cat = catalogue_of(game);

    if (!line) {
        return "";
    }
    if (current != CLI_LANG_ZH_CN || !key || !cat || len == 0) {
        return line;
    }
    for (size_t k = 1; k < json_array_size(msg); k++) {
        if (!json_is_string(json_array_get(msg, k))) {
            return line;
        }
    }
    for (size_t k = 0; k < cat->nmsgs; k++) {
        if (strcmp(cat->msgs[k].key, key) == 0) {
            return fill(cat, cat->msgs[k].zh, msg, buf, len) == 0 ? buf : line;
        }
    }
    return line;
}
