/* SPDX-License-Identifier: MIT */
/*
 * replay_main.c - the main() of every corpus-replay executable: it runs the
 * target's LLVMFuzzerTestOneInput once on each file named on the command
 * line or found in a directory named there (and in its subdirectories, one
 * level deep), in sorted order, so that a committed corpus becomes a plain
 * regression test that needs no clang. Arguments starting with '-' are the
 * libFuzzer flags shared with the fuzzing build and are ignored. It never
 * writes files; a path it cannot read, or a run with no input at all, fails.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_DEPTH 2

static unsigned long inputs_run;

/* Reads the whole file at `path` into a malloc'ed buffer. Returns 0 and
 * sets *ret_data / *ret_size, or -1 with a message on stderr. */
static int read_file(const char *path, uint8_t **ret_data, size_t *ret_size)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096;
    size_t len = 0;
    uint8_t *buf = malloc(cap);
    if (buf == NULL) {
        fclose(fp);
        fprintf(stderr, "replay: out of memory\n");
        return -1;
    }
    for (;;) {
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                fclose(fp);
                fprintf(stderr, "replay: out of memory\n");
                return -1;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0) {
            break;
        }
    }
    int failed = ferror(fp);
    fclose(fp);
    if (failed) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(buf);
        return -1;
    }
    *ret_data = buf;
    *ret_size = len;
    return 0;
}

/* Runs the target on one file. Returns 0 or -1. */
static int run_file(const char *path)
{
    uint8_t *data;
    size_t size;
    if (read_file(path, &data, &size) < 0) {
        return -1;
    }
    /* A private copy of exactly `size` bytes lets ASan catch reads past the
     * end of the input, as libFuzzer does. */
    uint8_t *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL) {
        free(data);
        fprintf(stderr, "replay: out of memory\n");
        return -1;
    }
    memcpy(copy, data, size);
    free(data);
    (void)LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    inputs_run++;
    return 0;
}

static int run_path(const char *path, int depth);

/* Runs the target on every entry of the directory `path`, skipping hidden
 * entries. Returns 0 or -1. */
static int run_dir(const char *path, int depth)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (name[0] != '.' && rc == 0) {
            size_t len = strlen(path) + strlen(name) + 2;
            char *child = malloc(len);
            if (child == NULL) {
                rc = -1;
            } else {
                snprintf(child, len, "%s/%s", path, name);
                rc = run_path(child, depth + 1);
                free(child);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Runs the target on a file, or on the files of a directory as long as
 * `depth` allows. Returns 0 or -1. */
static int run_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (depth > REPLAY_MAX_DEPTH) {
            return 0;
        }
        return run_dir(path, depth);
    }
    if (!S_ISREG(st.st_mode)) {
        return 0;
    }
    return run_file(path);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            continue;
        }
        if (run_path(argv[i], 1) < 0) {
            return 1;
        }
    }
    printf("replay: %lu inputs ran\n", inputs_run);
    if (inputs_run == 0) {
        fprintf(stderr, "replay: no input found\n");
        return 1;
    }
    return 0;
}
