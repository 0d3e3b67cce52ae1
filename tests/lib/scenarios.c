/* SPDX-License-Identifier: MIT */
/*
 * scenarios.c - the loader of the data-driven rules scenarios (scenarios.h).
 */
#include "scenarios.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILES_MAX 256

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

json_t *scenarios_load(const char *dir)
{
    char *names[FILES_MAX];
    size_t n = 0;
    struct dirent *ent;
    DIR *d = opendir(dir);
    json_t *all = json_array();

    if (!d || !all) {
        fprintf(stderr, "%s: cannot read the scenario folder\n", dir);
        exit(1);
    }
    while ((ent = readdir(d)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len > 5 && strcmp(ent->d_name + len - 5, ".json") == 0) {
            if (n == FILES_MAX || !(names[n] = strdup(ent->d_name))) {
                fprintf(stderr, "%s: more than %d scenario files\n", dir, FILES_MAX);
                exit(1);
            }
            n++;
        }
    }
    closedir(d);
    qsort(names, n, sizeof(names[0]), by_name);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        json_error_t err;
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        json_t *arr = json_load_file(path, 0, &err);
        if (!json_is_array(arr)) {
            fprintf(stderr, "%s:%d: %s\n", path, err.line,
                    arr ? "not an array of scenarios" : err.text);
            exit(1);
        }
        json_array_extend(all, arr);
        json_decref(arr);
        free(names[i]);
    }
    return all;
}
