/* SPDX-License-Identifier: MIT */
/*
 * stones.h - the one internal header of the Sorcerer & Stones rules core
 * (game id "stones"): the flat, pointer-free state, the decoded action, the
 * static game data and the declarations shared by the stones_*.c files. The
 * state is copied with memcpy and compared with memcmp; it never holds a
 * pointer. The rule files (state, rules, legal, invariants) use no jansson;
 * only the codec (actions, options, test positions) turns JSON into C and C
 * into JSON, the view (sections, "you", the result section) writes canonical
 * JSON text through struct game_text, and stones_game.c binds them to
 * game.h. The server sees only `stones_game`. Section ids such as
 * R-stones-2.5 refer to docs/rules/stones.md.
 */
#ifndef CONCLAVE_STONES_H
#define CONCLAVE_STONES_H

#include <stdint.h>

#include "game.h"
#include "rng.h"

/* ---- Sizes ---- */

#define STONES_NCOL 5        /* stone colours Y G B R N */
#define STONES_NTILES 5      /* Alchemy tiles Tn Tw Tc Te Ts */
#define STONES_NSLOTS 4      /* TL TR BL BR */
#define STONES_MAX_PLAYERS 4 /* colours in play */
#define STONES_NCARDS 11     /* magic cards per colour */
#define STONES_ROW 4         /* face-up magic cards */
#define STONES_NART 14       /* artifact cards */
#define STONES_ART_ROW 3     /* artifact row, plus the deck top */
#define STONES_NSTONES 40    /* spirit stones in the game */
#define STONES_EMAP 6        /* Element Zone is 6x6 */
#define STONES_LOG_N 8
#define STONES_LOG_LEN 160
#define STONES_EMPTY (-1)

/* Stone colours, in the notation order of the spec (0.2). */
enum stones_colour {
    STONES_Y = 0, /* yellow, Metal */
    STONES_G = 1, /* green, Wood */
    STONES_B = 2, /* blue, Water */
    STONES_R = 3, /* red, Fire */
    STONES_N = 4, /* brown, Earth */
};

enum stones_variant {
    STONES_STANDARD = 0,
    STONES_NOVICE = 1,
    STONES_COOP = 2,
};

/* Magic card ids within one colour's deck of 11 (R-stones-1.3). */
enum stones_card {
    STONES_SPIN1 = 0,
    STONES_SPIN2 = 1,
    STONES_FLY1 = 2,
    STONES_FLY2 = 3,
    STONES_QUAKE1 = 4,
    STONES_QUAKE2 = 5,
    STONES_SHIFT0 = 6, /* SHIFT-Y; SHIFT of colour c is STONES_SHIFT0 + c */
};

/* Decision points (R-stones-4.1). */
enum stones_phase {
    STONES_PH_PLACE = 0, /* place_taoist */
    STONES_PH_CAST,      /* cast */
    STONES_PH_CHOOSE,    /* choose_stone */
    STONES_PH_OFFER,     /* offer (co-op) */
    STONES_PH_MOVE,      /* move (step 3) and reward_move (step 4, O5 rune) */
    STONES_PH_CRAFT,     /* craft */
    STONES_PH_PAY,       /* pay */
    STONES_PH_REWARD,    /* reward (O5) */
    STONES_PH_OVER,      /* the game has ended */
};

/* Which movement batch a MOVE phase belongs to (R-stones-2.9). */
enum stones_batch {
    STONES_BATCH_STEP3 = 0,
    STONES_BATCH_STEP4 = 1,
    STONES_BATCH_O5 = 2,
};

enum stones_end {
    STONES_END_NONE = 0,
    STONES_END_RUNES,     /* five rune types, round completed */
    STONES_END_ARTIFACTS, /* artifact supply empty */
    STONES_END_QI,        /* Qi supply empty */
    STONES_END_FROZEN,    /* frozen position */
    STONES_END_NOVICE,    /* fourth artifact crafted */
    STONES_END_CARDS,     /* co-op: no magic card left */
    STONES_END_FORFEIT,   /* a seat forfeited (R-stones-6.3) */
};

enum stones_action_type {
    STONES_A_PLACE = 0,
    STONES_A_CAST,
    STONES_A_END_CAST,
    STONES_A_DISCARD,
    STONES_A_CHOOSE,
    STONES_A_OFFER,
    STONES_A_STEP,
    STONES_A_PAY_STEP,
    STONES_A_TAKE_RUNE,
    STONES_A_END_MOVE,
    STONES_A_CRAFT,
    STONES_A_END_TURN,
    STONES_A_PAY,
    STONES_A_PAY_PAIR,
    STONES_A_REWARD_STEP,
    STONES_A_REWARD_FLY,
    STONES_A_REWARD_SKIP,
    STONES_A_CANCEL,
    STONES_A_COUNT,
};

/* How much of a decision an action names, when it is chosen step by step
 * (R-stones-4.2, 4.6, 1.5): CAST FIRST is the card alone and SECOND the
 * card with its first choice (QUAKE: the tile to move; SHIFT: the slot
 * `a`); PAY_PAIR FIRST is the cost colour alone; PAY_STEP FIRST is the two
 * stones alone. WHOLE is the whole action. */
enum stones_part {
    STONES_PART_WHOLE = 0,
    STONES_PART_FIRST = 1,
    STONES_PART_SECOND = 2,
};

enum stones_quake {
    STONES_QUAKE_MOVE = 0,
    STONES_QUAKE_SWAP = 1,
};

/* A decoded action. Fields not used by `type` are zero. Slots are written
 * as tile * 4 + slot; cells of the Element Zone as (to_r, to_c). */
struct stones_action {
    int type;
    int part;  /* CAST, PAY_PAIR, PAY_STEP: enum stones_part */
    int card;  /* CAST, DISCARD: card id 0..10 */
    int tile;  /* PLACE, SPIN, FLY, QUAKE move/first swap tile, REWARD_FLY */
    int tile2; /* QUAKE swap: second tile */
    int dir;   /* SPIN: 0 clockwise, 1 counter-clockwise */
    int quake; /* QUAKE: STONES_QUAKE_MOVE or STONES_QUAKE_SWAP */
    int to_r;  /* QUAKE move destination (pre-move coordinates), or cell */
    int to_c;
    int slot_a; /* SHIFT: the stone of the card's colour; CHOOSE: the slot */
    int slot_b; /* SHIFT: the other stone */
    int colour; /* OFFER, PAY, PAY_PAIR (for) */
    int npair;  /* PAY_STEP: 0 or 2 stones; PAY_PAIR: 2 (0 for the colour alone) */
    int pair[2];
    int artifact; /* CRAFT: artifact index 0..13 */
};

/* One colour in play (a "player" of the rules; co-op seats may hold several). */
struct stones_player {
    int8_t colour;             /* stone colour of this player */
    int8_t seat;               /* controlling seat */
    int8_t taoist;             /* tile id, -1 before placement */
    int8_t spirit_r, spirit_c; /* Element cell (standard only) */
    int8_t row[STONES_ROW];    /* face-up cards, compact, -1 padding */
    int8_t row_n;
    int8_t deck[STONES_NCARDS]; /* top is deck[deck_n - 1] */
    int8_t deck_n;
    int8_t discard[STONES_NCARDS]; /* in the order discarded */
    int8_t discard_n;
    int8_t removed_n;               /* co-op: cards that left the game */
    int8_t held[STONES_NCOL];       /* reservoir counts */
    int8_t rune_owned[STONES_NCOL]; /* 1 when the type is owned (Starting Rune included) */
    int8_t rune_val[STONES_NCOL];   /* face value of a taken rune (Starting Rune 0) */
    int8_t crafted[STONES_NART];    /* artifact ids, in crafting order */
    int8_t ncrafted;
    int16_t qi;
    int16_t excess;
};

struct stones_state {
    int8_t variant;
    int8_t nseats;
    int8_t np; /* colours in play */
    int8_t phase;
    int8_t start;     /* start player */
    int8_t cur;       /* current player */
    int8_t place_idx; /* placements made so far */
    int8_t end_reason;
    int8_t final_round;
    int8_t objectives;    /* bit k-1 set when Ok is revealed */
    int8_t forfeit;       /* the seat that forfeited (R-stones-6.3), -1 none */
    int8_t forfeit_phase; /* the phase the forfeit ended, -1 none */

    /* Alchemy Zone (R-stones-2.1): tile positions and slot contents. */
    int8_t tile_r[STONES_NTILES];
    int8_t tile_c[STONES_NTILES];
    int8_t slot[STONES_NTILES][STONES_NSLOTS];

    /* Spirit Stone Supply: front is supply[0]. */
    int8_t supply[STONES_NSTONES];
    int8_t supply_n;

    /* Artifact supply: row plus the deck from art_top (face up). */
    int8_t art_row[STONES_ART_ROW];
    int8_t art_row_n;
    int8_t art_deck[STONES_NART];
    int8_t art_top;
    int8_t coop_filled; /* stones placed on the leftmost card */
    int8_t coop_done[STONES_NART];
    int8_t coop_done_n;

    /* Runes: stacks in decreasing value, top at index 0. */
    int8_t stack[STONES_NCOL][4];
    int8_t stack_n[STONES_NCOL];
    int8_t rune_removed[STONES_NCOL];

    int16_t qi_supply;
    int16_t qi_initial;

    struct stones_player pl[STONES_MAX_PLAYERS];

    /* Turn state. */
    int8_t casts;                     /* cards cast this turn */
    int8_t ngroups;                   /* activation groups that yield */
    int8_t group_mask[STONES_NSLOTS]; /* eligible slots of each yielding group */
    int8_t group_pick[STONES_NSLOTS]; /* chosen slot, -1 while undecided */
    int8_t group_cur;
    int8_t gained[STONES_NCOL];  /* stones gained this turn, by colour */
    int8_t pending[STONES_NCOL]; /* co-op: gained stones not yet offered */
    int8_t grant[STONES_NCOL];   /* unused step grants (step 3) */
    int8_t free_steps;           /* unused free steps (step 4) */
    int8_t batch;                /* enum stones_batch */
    int8_t batch_steps;          /* steps made in the current batch */
    int8_t o6_used;
    int8_t m_gained, m_same, m_maxline, m_lines; /* activation metrics (2.5) */
    int8_t pay_art;                              /* artifact being paid, -1 none */
    int8_t sel_card;          /* cast chosen step by step, -1 none (R-stones-4.2) */
    int8_t sel_first;         /* its first choice: QUAKE move tile, SHIFT slot a; -1 */
    int8_t pay_for;           /* pay_pair chosen step by step: the colour paid, -1 none */
    int8_t step_pair;         /* O6 pay_step chosen step by step: its two stones as
                               * 5 * first + second, -1 none */
    int8_t owed[STONES_NCOL]; /* outstanding cost positions by colour */
    int16_t turn_no;

    char names[STONES_MAX_PLAYERS][GAME_NAME_MAX];
    char log[STONES_LOG_N][STONES_LOG_LEN];
    /* Each line's message (game_format_msg()), at the line's index. */
    char log_msg[STONES_LOG_N][STONES_LOG_LEN];
    int8_t log_n;     /* entries used */
    int8_t log_head;  /* next entry to write */
    uint32_t log_seq; /* lines ever logged (the view's log items, game.h) */

    struct game_rng rng;
};

/* ---- Static data (stones_state.c) ---- */

struct stones_artifact {
    const char *id;
    const char *name;
    int8_t cost[5]; /* ordered colours */
    int8_t ncost;
    int8_t points;
    int8_t symbols[2]; /* element colours, -1 unused */
    int8_t nsym;
};

extern const struct stones_artifact stones_artifacts[STONES_NART];
/* Element Zone map: 0..4 a symbol colour, 10 + colour a rune site. */
extern const int8_t stones_emap[STONES_EMAP][STONES_EMAP];
extern const char *const stones_colour_letter[STONES_NCOL];
extern const char *const stones_colour_name[STONES_NCOL];
extern const char *const stones_element_name[STONES_NCOL];
extern const char *const stones_tile_name[STONES_NTILES];
extern const char *const stones_slot_name[STONES_NSLOTS];
extern const char *const stones_card_name[STONES_NCARDS];
extern const char *const stones_phase_name[];
extern const char *const stones_end_name[];

#define STONES_SITE(v) ((v) >= 10)

/* ---- stones_state.c ---- */

int stones__check_setup(int variant, int colours, int nseats, int *ret_colours,
                        struct game_error *err);
void stones__setup(struct stones_state *st, int variant, int ncolours,
                   const struct game_setup *setup);
void stones__log(struct stones_state *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *stones__pname(const struct stones_state *st, int p);

/* ---- stones_rules.c ---- */

int stones__may_act(const struct stones_state *st, int seat, struct game_error *err);
int stones__validate(const struct stones_state *st, const struct stones_action *a,
                     struct game_error *err);
int stones__apply(struct stones_state *st, int seat, const struct stones_action *a,
                  struct game_error *err);
int stones__current_seat(const struct stones_state *st);
int stones__can_afford(const int8_t held[STONES_NCOL], const int8_t owed[STONES_NCOL], int o7);
int stones__has_obj(const struct stones_state *st, int k);
int stones__score(const struct stones_state *st, int p, int parts[6]);
unsigned stones__winners(const struct stones_state *st);
void stones__begin_turn(struct stones_state *st);
void stones__advance(struct stones_state *st);
int stones__grid(const struct stones_state *st, int8_t grid[10][10]);
int stones__leftmost_artifact(const struct stones_state *st);
int stones__quake_movable(const struct stones_state *st, int tile);
int stones__card_castable(const struct stones_state *st, int card);
int stones__available(const struct stones_state *st, int8_t out[4]);
void stones__activation_metrics(const struct stones_state *st, int tile, int8_t elig[4],
                                int *maxline, int *lines);

/* ---- stones_timeout.c: what a clock's timeout calls (game.h) ---- */

int stones__forfeit(void *state, int seat, struct game_error *err);
int stones__skip(void *state, int seat, struct game_error *err);

/* ---- stones_undo.c: whether an action may be taken back (game.h) ---- */

bool stones__undoable(const void *before, const void *after, int seat);

/* ---- stones_legal.c ---- */

/* Calls cb for every legal action of the current player, in a fixed order,
 * until cb returns non-zero; returns the number of actions visited. */
int stones__enumerate(const struct stones_state *st,
                      int (*cb)(const struct stones_action *a, void *ctx), void *ctx);

/* ---- stones_invariants.c ---- */

int stones__check_invariants(const void *state, struct game_error *err);

/* ---- stones_codec.c ---- */

/* The legal list being built: the stones__enumerate() context of
 * stones__legal_push(). `failed` is set when an allocation failed. */
struct stones_legal_list {
    json_t *arr;
    int failed;
};

json_t *stones__options_schema(void);
int stones__options_decode(const json_t *options, int *ret_variant, int *ret_colours,
                           struct game_error *err);
int stones__legal_push(const struct stones_action *a, void *ctx);
int stones_action_decode(const json_t *obj, struct stones_action *ret, struct game_error *err);
json_t *stones_action_encode(const struct stones_action *a);
/* stones_action_encode()'s object as canonical text, without the tree. */
void stones_action_write(struct game_text *w, const struct stones_action *a);
int stones__legal_write(const struct stones_action *a, void *ctx);
int stones_state_load(const json_t *pos, struct stones_state *st);
json_t *stones_state_dump(const struct stones_state *st);

/* ---- stones_view.c ---- */

/* The sections of the public view, in key order (bit k of a change mask is
 * sections[k]). Every key sorts before "you". */
enum stones_section {
    STONES_S_ACTIVE = 0,
    STONES_S_ARTIFACTS,
    STONES_S_BOARD,
    STONES_S_ELEMENT,
    STONES_S_GAME,
    STONES_S_LOG,
    STONES_S_LOG_KEYS,
    STONES_S_OBJECTIVES,
    STONES_S_PENDING,
    STONES_S_PHASE,
    STONES_S_PLAYERS,
    STONES_S_QI_SUPPLY,
    STONES_S_RESULT,
    STONES_S_SEATS,
    STONES_S_SUPPLY,
    STONES_S_TURN,
    STONES_S_VARIANT,
    STONES_NSECTIONS,
};

extern const struct game_section stones__sections[STONES_NSECTIONS];
uint64_t stones__changed(const void *before, const void *after);
void stones__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you);
void stones__you(struct game_text *out, const void *state, int seat);

/* ---- stones_game.c ---- */

extern const struct game_ops stones_game;

/* ---- stones_tests.c: the hooks of the shared test suites (game_tests.h) ---- */

extern const struct game_tests stones_tests;

/* ---- stones_bot.c: what the bots search with (game.h) ---- */

extern const struct game_bot stones_bot;

#endif
