/* SPDX-License-Identifier: MIT */
/*
 * element.h - the one internal header of the Element rules core (game id
 * "element", with the Silver elements Lightning, Wood and Metal): the flat,
 * pointer-free state, the decoded action and the declarations shared by the
 * element_*.c files. The state is copied with memcpy and compared with
 * memcmp. The rule files (state, rules, legal, invariants) use no jansson;
 * the codec turns JSON into C (actions, options, test positions) and back,
 * the view writes canonical JSON text, and element_game.c binds them to
 * game.h. Section ids such as R-element-5.4 refer to docs/rules/element.md.
 */
#ifndef CONCLAVE_ELEMENT_H
#define CONCLAVE_ELEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

/* ---- Sizes and named interpretations (docs/rules/element.md 10) ---- */

#define ELEMENT_SIDE 11
#define ELEMENT_NSQ (ELEMENT_SIDE * ELEMENT_SIDE)
#define ELEMENT_MAX_SEATS 4
#define ELEMENT_PER_TYPE 30     /* I-02: stones of each element, silver too */
#define ELEMENT_MAX_DRAW 4      /* R-element-4.2 */
#define ELEMENT_MOVES 5         /* steps allowed = 5 - stones drawn */
#define ELEMENT_EARTH_MAX 2     /* a Mountain is two Earths */
#define ELEMENT_WIND_MAX 4      /* a Whirlwind holds four Winds at most */
#define ELEMENT_JUMP_LIMIT 20   /* I-42: jumps per turn */
#define ELEMENT_ROUND_LIMIT 300 /* I-41: full rounds before a drawn game */
#define ELEMENT_RIVER_MAX 32    /* stones of one river (30 Water, plus room) */
#define ELEMENT_LOG_N 6
#define ELEMENT_LOG_LEN 128

/* What a square holds (R-element-2.2); `height` counts stacked stones. */
enum element_kind {
    ELEMENT_K_EMPTY = 0,
    ELEMENT_K_FIRE,
    ELEMENT_K_WATER,
    ELEMENT_K_EARTH, /* height 1, or 2 = Mountain */
    ELEMENT_K_WIND,  /* height 1..4; 2 and more = Whirlwind */
    ELEMENT_K_LIGHTNING,
    ELEMENT_K_WOOD,
    ELEMENT_K_BLAZE, /* Fire on Wood: two stones */
    ELEMENT_K_METAL,
};

/* Bag and hand types (I-31: the silver stones are one type). */
enum element_type {
    ELEMENT_T_FIRE = 0,
    ELEMENT_T_WATER,
    ELEMENT_T_EARTH,
    ELEMENT_T_WIND,
    ELEMENT_T_SILVER,
    ELEMENT_NTYPES,
};

/* Stones as the actions name them (R-element-2.3), in listing order. */
enum element_stone {
    ELEMENT_S_FIRE = 0,
    ELEMENT_S_WATER,
    ELEMENT_S_EARTH,
    ELEMENT_S_WIND,
    ELEMENT_S_LIGHTNING,
    ELEMENT_S_WOOD,
    ELEMENT_S_METAL,
    ELEMENT_NSTONES,
};

enum element_silver {
    ELEMENT_SILVER_NONE = 0,
    ELEMENT_SILVER_LIGHTNING,
    ELEMENT_SILVER_WOOD,
    ELEMENT_SILVER_METAL,
};

enum element_phase {
    ELEMENT_PH_DRAW = 0,
    ELEMENT_PH_ACT,
    ELEMENT_PH_CHAIN,
    ELEMENT_PH_FLOW,
    ELEMENT_PH_GROW,
    ELEMENT_PH_MAGNET,
    ELEMENT_PH_REMOVE,
    ELEMENT_PH_CORRODE,
    ELEMENT_PH_OVER,
};

enum element_reason {
    ELEMENT_R_NONE = 0,
    ELEMENT_R_SURROUNDED,
    ELEMENT_R_BAG_EMPTY,
    ELEMENT_R_ROUND_LIMIT,
    ELEMENT_R_FORFEIT, /* a seat's clock ran out under the policy "lose" */
};

enum element_action_type {
    ELEMENT_A_NONE = 0,
    ELEMENT_A_DRAW,
    ELEMENT_A_STEP,
    ELEMENT_A_JUMP,
    ELEMENT_A_PLACE,
    ELEMENT_A_CHAIN,
    ELEMENT_A_FLOW,
    ELEMENT_A_GROW,
    ELEMENT_A_GROW_DONE,
    ELEMENT_A_MAGNET,
    ELEMENT_A_REMOVE,
    ELEMENT_A_KEEP,
    ELEMENT_A_CORRODE,
    ELEMENT_A_END,
    ELEMENT_A_PICK, /* the stone the next placement takes (R-element-4.6) */
    ELEMENT_A_COUNT,
};

/* A decoded action: `sq` is the square of to/at (0..120), `arg` the draw
 * count, the stone or the magnet mode (0 attract, 1 repel). */
struct element_action {
    uint8_t type;
    uint8_t sq;
    uint8_t arg;
};

/* The part of the game the rules work on; validation copies only this. */
struct element_core {
    struct game_rng rng; /* the bag's draws (I-36); never shown */
    uint8_t nseats;
    uint8_t silver;    /* enum element_silver, resolved at creation */
    uint8_t first;     /* the seat that starts (I-35) */
    uint8_t cur;       /* the seat whose turn it is */
    uint8_t phase;     /* enum element_phase */
    uint8_t reason;    /* enum element_reason, once over */
    int8_t winner;     /* seat, or -1 */
    int8_t final_seat; /* the seat that began the final round (I-40), or -1 */
    int8_t forfeit;    /* the seat that forfeited, or -1 */
    uint8_t pick;      /* R-element-4.6: stone + 1 picked for the next placement, 0 none */
    int16_t round;     /* 1 = the first player's first turn */
    uint8_t kind[ELEMENT_NSQ];
    uint8_t height[ELEMENT_NSQ];
    uint8_t sage[ELEMENT_MAX_SEATS];
    int16_t bag[ELEMENT_NTYPES];
    int8_t hand[ELEMENT_NTYPES];
    int8_t drawn; /* stones declared this turn, -1 before the draw */
    int8_t steps; /* steps left */
    int8_t jumps; /* jumps made this turn */
    /* The placement whose follow-ups are open (R-element-4.7). */
    uint8_t p_stone; /* enum element_stone */
    uint8_t p_at;
    uint8_t r_n;                        /* river: stones in the chain so far, H included */
    uint8_t r_moved;                    /* squares the Headwater has entered */
    uint8_t river[ELEMENT_RIVER_MAX];   /* current squares, Headwater first */
    uint8_t entered[ELEMENT_RIVER_MAX]; /* squares entered, in order */
    uint8_t old[ELEMENT_NSQ];           /* 1: held by the river before it moved */
    uint8_t grow_left;                  /* New Growth: Woods still allowed */
};

struct element_state {
    struct element_core c;
    char names[ELEMENT_MAX_SEATS][GAME_NAME_MAX];
    char log[ELEMENT_LOG_N][ELEMENT_LOG_LEN];
    /* Each line's message (game_format_msg()), at the line's index. */
    char log_msg[ELEMENT_LOG_N][ELEMENT_LOG_LEN];
    int8_t log_n;
    int8_t log_head;
    uint32_t log_seq; /* lines ever logged (the view's log items, game.h) */
};

/* ---- Names (element_state.c) ---- */

extern const char *const element_stone_name[ELEMENT_NSTONES];
extern const char *const element_kind_name[];
extern const char *const element_phase_name[];
extern const char *const element_silver_name[];
extern const char *const element_reason_name[];
extern const char *const element_action_name[ELEMENT_A_COUNT];
extern const uint8_t element_start_square[3][ELEMENT_MAX_SEATS]; /* I-03, by seat count 2..4 */

/* "a1".."k11" into buf (4 bytes); -1 when not a square name. */
void element__sq_name(int sq, char buf[4]);
int element__sq_parse(const char *s);

/* ---- Setup and turn flow (element_state.c) ---- */

void element__setup(struct element_state *st, int nseats, int silver,
                    const struct game_setup *setup);
/* Appends a line to the log window and its message (`key` of
 * lang/element.json and the arguments of `fmt`) beside it. */
void element__log(struct element_state *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The seat that acts now, or -1 when the game is over. */
int element__current_seat(const struct element_state *st);
/* 1 when `seat` is among the winners of the ended game: the hunter of the
 * surrounded Sage, or every seat but the one that forfeited (R-element-12.1). */
bool element__is_winner(const struct element_core *c, int seat);
/* Ends the game with `seat`, the seat to move, forfeiting (R-element-12.1). */
void element__forfeit(struct element_state *st, int seat);
/* The seat whose Sage `seat` hunts (the next in turn order). */
int element__target(const struct element_core *c, int seat);
/* R-element-4.1: starts the turn of c->cur (or ends the game). */
void element__start_turn(struct element_core *c);
/* Takes every automatic step (I-34) until a player has a decision. */
void element__settle(struct element_core *c);

/* ---- Geometry and placement rules (element_rules.c) ---- */

/* 1 when the Sage on `sq` has a step or a jump (R-element-6.4). */
bool element__has_move(const struct element_core *c, int sq);
/* The seat whose Sage stands on `sq`, or -1. */
int element__sage_on(const struct element_core *c, int sq);
/* Range flags of every square (R-element-5.5). */
void element__ranges(const struct element_core *c, uint8_t ret_range[ELEMENT_NSQ]);
/* Storm flags of every square (R-element-8.1). */
void element__storms(const struct element_core *c, uint8_t ret_storm[ELEMENT_NSQ]);
/* The landing square of the jump from `from` in direction `d` (0..7),
 * or -1 when there is none (R-element-6.3); self-capture not judged. */
int element__jump_landing(const struct element_core *c, int from, int d, const uint8_t *range,
                          const uint8_t *storm);
/* Validates and applies one action of the active seat to the core, without
 * the automatic steps that follow; GAME_OK or a refusal. */
int element__act(struct element_core *c, const struct element_action *a, struct game_error *err);
/* 1 when the Rule of Replacement lets `stone` go on `sq` at all (no
 * Sage there); a cheap first filter before the full test of a placement. */
bool element__may_place(const struct element_core *c, int stone, int sq, const uint8_t *range);
/* The candidate chain squares / flow squares of the open river. */
int element__chain_cands(const struct element_core *c, uint8_t ret[4]);
int element__flow_cands(const struct element_core *c, uint8_t ret[4]);
/* Ends the placement: the capture check (R-element-4.5, 7.3). */
void element__finish_placement(struct element_core *c);
/* 1 when a placement of `stone` is allowed in this game at all. */
bool element__stone_in_play(const struct element_core *c, int stone);
/* The hand type a stone is drawn as. */
int element__stone_type(int stone);

/* 1 when `stone` is in play, in hand and has a legal placement now. */
bool element__can_place(const struct element_core *c, int stone);

/* ---- Legal actions (element_legal.c) ---- */

typedef void (*element_emit_cb)(void *ud, const struct element_action *a);
/* Every action the active seat may take now, placements with their square
 * (the full list, R-element-4.6), in its order. */
void element__enumerate(const struct element_core *c, element_emit_cb emit, void *ud);
/* The list `legal` gives (R-element-4.6): the full list with the
 * placements as a decision of two steps, `pick` a stone, then `place` it. */
void element__enumerate_stepwise(const struct element_core *c, element_emit_cb emit, void *ud);
/* The number of actions element__enumerate lists; the only one in *ret_a. */
int element__count_legal(const struct element_core *c, struct element_action *ret_a);

/* ---- Codec (element_codec.c) ---- */

json_t *element__options_schema(void);
/* The silver option: 0..3, or 4 for random; GAME_E_BAD_OPTION when bad. */
int element__options_decode(const json_t *options, int nseats, int *ret_silver,
                            struct game_error *err);
int element_action_decode(const json_t *json, struct element_action *ret_a, struct game_error *err);
json_t *element_action_encode(const struct element_action *a);
/* The same object, written as canonical text into `w`. */
void element_action_write(struct game_text *w, const struct element_action *a);
/* Stones of each type on the board. */
void element__board_counts(const struct element_core *c, int counts[ELEMENT_NTYPES]);
/* Test positions: the state as JSON, and a position overlay loaded into it. */
json_t *element_state_dump(const struct element_state *st);
int element_state_load(const json_t *pos, struct element_state *st);

/* ---- View (element_view.c) ---- */

enum element_section {
    ELEMENT_S_ACTIVE = 0,
    ELEMENT_S_BAG,
    ELEMENT_S_BOARD,
    ELEMENT_S_GAME,
    ELEMENT_S_LOG,
    ELEMENT_S_LOG_KEYS,
    ELEMENT_S_PENDING,
    ELEMENT_S_PHASE,
    ELEMENT_S_RESULT,
    ELEMENT_S_SEATS,
    ELEMENT_S_SILVER,
    ELEMENT_S_TURN,
    ELEMENT_NSECTIONS,
};

extern const struct game_section element__sections[ELEMENT_NSECTIONS];
uint64_t element__changed(const void *before, const void *after);
void element__you(struct game_text *out, const void *state, int seat);

/* ---- Invariants and test hooks ---- */

int element__check_invariants(const void *state, struct game_error *err);
extern const struct game_tests element_tests;
extern const struct game_ops element_game;

/* ---- What the bots search with (element_bot.c, game.h) ---- */

extern const struct game_bot element_bot;

#endif
