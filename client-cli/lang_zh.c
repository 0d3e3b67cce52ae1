/* SPDX-License-Identifier: MIT */
/*
 * lang_zh.c - the client's strings in Simplified Chinese (zh-CN), each
 * beside its English, the key it is looked up by (lang.c). A format keeps
 * its English's conversions in the same order (check_cli_messages.py holds
 * the table to the sources). The games' terms follow the Chinese rulebooks
 * where they have one (Res Arcana's essences, components and actions);
 * the rest is our translation.
 */
#include "lang.h"

const struct cli_tr_pair cli_zh_cn[] = {
    {"conclave: --lang takes en or zh-CN, not \"%s\"\n",
     "conclave：--lang 的取值是 en 或 zh-CN，而不是“%s”\n"},
};

const size_t cli_zh_cn_n = sizeof(cli_zh_cn) / sizeof(cli_zh_cn[0]);
