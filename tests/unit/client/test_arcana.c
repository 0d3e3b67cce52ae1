/* SPDX-License-Identifier: MIT */
#include "ck_run.h"
int main(void)
{
    const struct ck_case cases[] = {};
    return CK_RUN("arcana", cases, NULL, NULL);
}
