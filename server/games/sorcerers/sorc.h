/* SPDX-License-Identifier: MIT */
/*
 * sorc.h - the one internal header of the Sorcerers rules core: card table,
 * flat game state, decoded actions, the view's sections and the functions
 * shared between the core's files. The state is a fixed-size, pointer-free
 * block (memcpy copies a game, memcmp compares two); the card table is
 * static const data. Nothing here may do I/O, read clocks or keep global
 * mutable state. The server sees only `sorc_game` (sorc_game.c). Rule files
 * (sorc_state.c, sorc_rules.c, sorc_legal.c, sorc_invariants.c) never use
 * JSON; it lives only in sorc_codec.c (actions, options, positions) and
 * sorc_view.c (the view).
 */
#ifndef CONCLAVE_SORC_H
#define CONCLAVE_SORC_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

#define SORC_NCARDS 112
#define SORC_NONE 0xFF
#define SORC_MAX_INPLAY 20 /* every sorcerer card */
#define SORC_MAX_OBJ 10    /* nine objects exist; one spare */
#define SORC_LOG_LINES 8
#define SORC_LOG_LEN 120
#define SORC_NAME_MAX GAME_NAME_MAX
#define SORC_MAX_XFER 16
#define SORC_DIVINATION 7

/* Card indices the rules name (list_index - 1). */
#define SORC_GRIMHOLD 0
#define SORC_BALTHAZAR 1
#define SORC_DAVE 2
#define SORC_HORVATH 11
#define SORC_MORGANA 15
#define SORC_MARTYR 80

/* Sides: the faction a seat plays. */
#define SORC_MER 0
#define SORC_MOR 1

enum sorc_type {
    SORC_T_MER = 1,
    SORC_T_MOR,
    SORC_T_SPELL,
    SORC_T_AMP,
    SORC_T_OBJECT,
    SORC_T_EVENT,
    SORC_T_DEFENSE,
};

enum sorc_class {
    SORC_C_ENERGY = 1,
    SORC_C_CREATURE = 2,
    SORC_C_TELEKINESIS = 4,
    SORC_C_TRAP = 8,
    SORC_C_LOCATION = 16,
};

/* Keyword bits (sorcerers-cards.json `kw`), 64-bit. */
#define SORC_K_FIRST_TO_FIGHT (UINT64_C(1) << 0)
#define SORC_K_PRIME_MOVER (UINT64_C(1) << 1)
#define SORC_K_NEMESIS (UINT64_C(1) << 2)
#define SORC_K_CHARISMA (UINT64_C(1) << 3)
#define SORC_K_REPURPOSE (UINT64_C(1) << 4)
#define SORC_K_GREATER_AMPLIFICATION (UINT64_C(1) << 5)
#define SORC_K_AMPLIFICATION (UINT64_C(1) << 6)
#define SORC_K_CONFIDENCE (UINT64_C(1) << 7)
#define SORC_K_EXPERIENCE (UINT64_C(1) << 8)
#define SORC_K_CHARLATAN (UINT64_C(1) << 9)
#define SORC_K_RESEARCHER (UINT64_C(1) << 10)
#define SORC_K_REPOSITORY (UINT64_C(1) << 11)
#define SORC_K_BETRAYER (UINT64_C(1) << 12)
#define SORC_K_ILLUSIONIST (UINT64_C(1) << 13)
#define SORC_K_CONJURER (UINT64_C(1) << 14)
#define SORC_K_INNOCENT (UINT64_C(1) << 15)
#define SORC_K_DEAL_WITH_THE_DEVIL (UINT64_C(1) << 16)
#define SORC_K_HARD_TO_KILL (UINT64_C(1) << 17)
#define SORC_K_INQUISITION (UINT64_C(1) << 18)
#define SORC_K_GRIMHOLD_GATE (UINT64_C(1) << 19)
#define SORC_K_GRIMHOLD (UINT64_C(1) << 20)
#define SORC_K_NEGATE (UINT64_C(1) << 21)
#define SORC_K_FACTION_ONLY (UINT64_C(1) << 22)
#define SORC_K_EA (UINT64_C(1) << 23)
#define SORC_K_USE_AS (UINT64_C(1) << 24)
#define SORC_K_BONUS_IF_NO_SPELL (UINT64_C(1) << 25)
#define SORC_K_SACRIFICE (UINT64_C(1) << 26)
#define SORC_K_IMBUE (UINT64_C(1) << 27)
#define SORC_K_PE_IMBUE (UINT64_C(1) << 28)
#define SORC_K_PROTECT (UINT64_C(1) << 29)
#define SORC_K_SPELL_MOD (UINT64_C(1) << 30)
#define SORC_K_AMP_MOD_OTHERS (UINT64_C(1) << 31)
#define SORC_K_DISCARD_FOR_POWER (UINT64_C(1) << 32)
#define SORC_K_DRAIN (UINT64_C(1) << 33)
#define SORC_K_FREEZE (UINT64_C(1) << 34)

enum sorc_neg_target { SORC_NEG_AMP = 1, SORC_NEG_SPELL = 2 };
enum sorc_timing { SORC_TIMING_REVEAL = 1, SORC_TIMING_DEFENSE = 2 };
enum sorc_mod_whose { SORC_MOD_OWN = 1, SORC_MOD_OPPOSING = 2 };
enum sorc_what { SORC_WHAT_ANY = 1, SORC_WHAT_SORCERER, SORC_WHAT_OBJECT };

enum sorc_ea {
    SORC_EA_NONE = 0,
    SORC_EA_SCRY,
    SORC_EA_DRAW,
    SORC_EA_DIVINATION,
    SORC_EA_TRACK,
    SORC_EA_FIND,
    SORC_EA_OPP_DISCARDS,
    SORC_EA_STEAL_OBJECT,
    SORC_EA_SKIP,
    SORC_EA_UP_IN_SMOKE,
};

/* One card of the common deck. Parameters not used by a card are 0. */
struct sorc_card {
    const char *id;
    const char *name;
    uint8_t type;
    int8_t power;       /* printed power; "-" is 0 */
    uint8_t power_null; /* 1 when printed "-" */
    uint8_t classes;    /* enum sorc_class bits */
    uint64_t kw;        /* SORC_K_* bits */
    int8_t bonus;       /* charisma, amplification, conjurer, betrayer, dagger, dishes, per card */
    int8_t draw;        /* experience, researcher */
    int8_t hand_bonus;  /* repository */
    int8_t margin;      /* hard to kill */
    int8_t steals;      /* inquisition */
    int8_t count;       /* ea count, innocent discards, drain count */
    uint8_t conjurer_class;
    uint8_t betrayer_exclude;
    uint8_t nemesis_of;
    uint8_t negate_target;
    uint8_t negate_class;
    uint8_t negate_timing;
    uint8_t faction_only;
    uint8_t ea;
    uint8_t ea_what;
    int8_t use_as_power; /* -1 when the card has no use_as */
    uint64_t imbue;      /* keyword an object gives its carrier */
    uint8_t mod_whose;
    uint8_t mod_class;
    int8_t mod_amount;
};

extern const struct sorc_card sorc_cards[SORC_NCARDS];

/* Card index of `id`, or SORC_NONE. */
uint8_t sorc__card_find(const char *id);

/* ---- State ---- */

/* The state names of spec section 4.5, in the order of the table. */
enum sorc_phase {
    SORC_P_LORE_FAUST = 0,
    SORC_P_RECRUIT,
    SORC_P_EVENT,
    SORC_P_EVENT_TRACK,
    SORC_P_EVENT_DISCARD,
    SORC_P_ENCOUNTER,
    SORC_P_DUEL_COMBO,
    SORC_P_DUEL_CLEAR_MIND,
    SORC_P_DUEL_NEGATE,
    SORC_P_DUEL_DEFENSE,
    SORC_P_DUEL_PROTECT,
    SORC_P_DUEL_STEAL,
    SORC_P_OBJECT_OVERFLOW,
    SORC_P_GRIMHOLD_PLACE,
    SORC_P_END_DISCARD,
    SORC_P_OVER,
    SORC_P_COUNT,
};

/* Automatic stages: where the engine continues after a decision. */
enum sorc_stage {
    SORC_S_LORE = 0,
    SORC_S_RECRUIT_MER,
    SORC_S_RECRUIT_MOR,
    SORC_S_EVENT_START,
    SORC_S_EVENT_PRIORITY,
    SORC_S_EVENT_FINISH, /* an activation finished: discard the card, pass priority */
    SORC_S_ENCOUNTER,
    SORC_S_ENCOUNTER_RESOLVE,
    SORC_S_COMBO,
    SORC_S_REVEAL,
    SORC_S_CLEAR_MIND,
    SORC_S_NEGATE,
    SORC_S_NEGATE_APPLY,
    SORC_S_DRAIN,
    SORC_S_DEFENSE,
    SORC_S_DEFENSE_APPLY,
    SORC_S_OUTCOME,
    SORC_S_RESULT,
    SORC_S_RESULT_REMOVE,
    SORC_S_STEAL,
    SORC_S_CLEANUP,
    SORC_S_END,
    SORC_S_VICTORY,
};

/* Combo slots, in the order of spec 2.1. */
enum sorc_slot {
    SORC_SLOT_SPELL = 0,
    SORC_SLOT_EVENT,
    SORC_SLOT_AMP0,
    SORC_SLOT_AMP1,
    SORC_SLOT_AMP2,
    SORC_SLOT_DEFENSE,
    SORC_SLOT_PROTECT,
    SORC_NSLOTS,
};

/* One sorcerer in play, with its objects in attachment order. */
struct sorc_inplay {
    uint8_t card;
    uint8_t nobj;
    uint8_t obj[SORC_MAX_OBJ];
    uint8_t ftf_temp; /* Martyr gave First to Fight this turn */
    uint8_t pad;
};

/* One side's duel data. Before the reveal the slots are a private draft and
 * the cards stay in the hand; after it they are in the duel area. */
struct sorc_combo {
    uint8_t slot[SORC_NSLOTS]; /* card or SORC_NONE */
    uint8_t negated[SORC_NSLOTS];
    uint8_t steps;     /* 0..6 combo steps accepted */
    uint8_t namp;      /* amplifier slots filled */
    uint8_t sacrifice; /* declared */
    uint8_t betray;    /* declared target or SORC_NONE */
    uint8_t betrayed;  /* the betrayal was carried out */
    uint8_t clear_mind;
    uint8_t submitted;     /* sealed step done (flag shown to the other seat) */
    uint8_t asked;         /* seat was asked in the current sealed step */
    uint8_t neg_target[2]; /* pending duel_negate choices (spell, event negator) */
    uint8_t def_card;      /* pending defense card or SORC_NONE */
    uint8_t enc_choice;    /* 0 keep, 1 first_to_fight, 2 martyr */
    uint8_t enc_sorc;
    uint8_t pick;  /* random Encounter pick */
    uint8_t final; /* final dueling sorcerer */
    uint8_t pad;
    int16_t total;
};

struct sorc_state {
    uint32_t magic;
    struct game_rng rng;
    char names[2][SORC_NAME_MAX]; /* by seat */
    uint8_t mer_seat;             /* the seat playing the Merlinians */
    uint8_t phase;                /* enum sorc_phase */
    uint8_t stage;                /* enum sorc_stage to run next */
    uint8_t resume;               /* stage after an interrupt */
    uint8_t act[2];               /* by side: may act in the current decision */
    uint8_t cur_side;             /* the deciding side of a one-seat state */
    uint16_t turn;
    uint16_t max_turns;

    uint8_t deck[SORC_NCARDS]; /* deck[ndeck - 1] is the top */
    uint8_t ndeck;
    uint8_t discard[SORC_NCARDS];
    uint8_t ndiscard;
    uint8_t hand[2][SORC_NCARDS]; /* by side */
    uint8_t nhand[2];

    struct sorc_inplay inplay[SORC_MAX_INPLAY]; /* entry order */
    uint8_t ninplay;
    uint8_t grim_loose; /* the Grimhold is unattached */

    uint8_t gate_done[SORC_NCARDS]; /* gated card was recruited once */
    uint8_t marker_dave;
    uint8_t marker_morgana;
    uint8_t destroy_morgana;

    /* Lore. */
    uint8_t faust_dealt;

    /* Recruit. */
    uint8_t recruited;
    uint8_t moved[SORC_NCARDS];

    /* Event. */
    uint8_t priority; /* side */
    uint8_t last_pass;
    uint8_t ea_used[SORC_NCARDS];
    uint8_t ea_card; /* card being resolved or SORC_NONE */
    uint8_t ea_side;
    uint8_t discard_left; /* Hex / Illusion */
    uint8_t skip_duel;    /* Disguise */
    uint8_t scry_n[2];
    uint8_t scry[2][SORC_NCARDS];
    uint8_t div_n[2];
    uint8_t div[2][SORC_DIVINATION];
    uint8_t tracked[2]; /* card taken by Track this turn, or SORC_NONE */

    /* Encounter and duel. */
    uint8_t duel_on;  /* a duel is being fought (cards may be in the area) */
    uint8_t revealed; /* combos are public */
    uint8_t outcome;  /* 0 none yet, 1 winner, 2 tie, 3 sacrifice, 4 no duel */
    uint8_t winner;   /* side */
    uint8_t protected_;
    uint8_t steal_left;
    uint8_t clear_side;
    int16_t margin;
    struct sorc_combo combo[2];

    /* Cards that moved between hands since the last encounter (shown to both
     * seats under "you", I-48). */
    uint8_t nxfer;
    uint8_t xfer_card[SORC_MAX_XFER];
    uint8_t xfer_from[SORC_MAX_XFER];

    /* Result. */
    uint8_t over;
    int8_t winner_side; /* -1 draw */
    uint8_t reason;     /* enum sorc_reason */

    /* Log ring: log[(log_head + i) % SORC_LOG_LINES], oldest first, and
     * beside each line its message (game_format_msg(), lang/sorcerers.json). */
    uint8_t log_head;
    uint8_t log_n;
    uint32_t log_seq; /* lines ever logged (the view's log items, game.h) */
    char log[SORC_LOG_LINES][SORC_LOG_LEN];
    char log_msg[SORC_LOG_LINES][SORC_LOG_LEN];
};

#define SORC_MAGIC 0x534f5243u

enum sorc_reason {
    SORC_R_NONE = 0,
    SORC_R_DESTROY_MORGANA,
    SORC_R_SUCCESSION,
    SORC_R_RISING_SPELL,
    SORC_R_ARMY,
    SORC_R_SIMULTANEOUS,
    SORC_R_TURN_LIMIT,
    SORC_R_FORFEIT, /* the other side forfeited (R-sorcerers-7.1) */
};

/* ---- Actions ---- */

enum sorc_atype {
    SORC_A_DEAL = 1,
    SORC_A_DONE,
    SORC_A_RECRUIT,
    SORC_A_EQUIP,
    SORC_A_MOVE_OBJECT,
    SORC_A_DISCARD_OBJECT,
    SORC_A_PLACE_GRIMHOLD,
    SORC_A_ACTIVATE,
    SORC_A_PASS,
    SORC_A_TRACK,
    SORC_A_DISCARD,
    SORC_A_ENCOUNTER,
    SORC_A_COMBO_SPELL,
    SORC_A_COMBO_EVENT,
    SORC_A_COMBO_AMP,
    SORC_A_COMBO_DECLARE,
    SORC_A_CLEAR_MIND,
    SORC_A_NEGATE,
    SORC_A_DEFENSE,
    SORC_A_PROTECT,
    SORC_A_STEAL,
    SORC_A_COUNT,
};

enum sorc_enc_choice { SORC_ENC_KEEP = 0, SORC_ENC_FTF, SORC_ENC_MARTYR };

/* A decoded action. Card fields hold SORC_NONE when null or absent. */
struct sorc_action {
    uint8_t type;
    uint8_t card;
    uint8_t to;
    uint8_t target;
    uint8_t object;
    uint8_t sorcerer;
    uint8_t choice;
    uint8_t sacrifice;
    uint8_t betray;
    uint8_t nchoices;
    uint8_t ch_card[2];
    uint8_t ch_target[2];
};

/* A list of actions built by sorc__legal_list. */
#define SORC_MAX_LEGAL 2048
struct sorc_legal {
    int n;
    struct sorc_action a[SORC_MAX_LEGAL];
};

/* ---- The view's sections (sorc_view.c), sorted by key bytes ---- */

enum sorc_section {
    SORC_SEC_ACTIVE = 0,
    SORC_SEC_DECK_SIZE,
    SORC_SEC_DISCARD,
    SORC_SEC_DUEL,
    SORC_SEC_EVENT,
    SORC_SEC_GAME,
    SORC_SEC_GATES,
    SORC_SEC_GRIMHOLD,
    SORC_SEC_LOG,
    SORC_SEC_LOG_KEYS,
    SORC_SEC_MARKERS,
    SORC_SEC_MAX_TURNS,
    SORC_SEC_MOVED_BETWEEN_HANDS,
    SORC_SEC_PHASE,
    SORC_SEC_PLAY,
    SORC_SEC_RESULT,
    SORC_SEC_SEATS,
    SORC_SEC_STEALS_LEFT,
    SORC_SEC_TURN,
    SORC_NSECTIONS,
};

/* sorc_game's sections: sorc__sections[k] is bit k of sorc__changed(). */
extern const struct game_section sorc__sections[SORC_NSECTIONS];

/* game_ops.changed: the sections (and GAME_CHANGED_YOU) that may differ
 * between the states `before` and `after`. */
uint64_t sorc__changed(const void *before, const void *after);

/* game_ops.parts_changed: which seats' items of "seats" and "you" may
 * differ. */
void sorc__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you);

/* game_ops.you: writes the private view of `seat` (0 or 1) to `out`. */
void sorc__you(struct game_text *out, const void *state, int seat);

/* ---- The JSON edge (sorc_codec.c) ---- */

/* Decodes a wire action (borrowed) into *ret_a. Returns GAME_OK, or
 * GAME_E_BAD_ACTION with a sentence naming the field in `err` when it is
 * malformed: not an object, an unknown type, a field its type does not
 * define (nested choices too), a missing or ill-typed field, an unknown card
 * id (R-sorcerers-10). *ret_a is written only on success. */
int sorc_action_decode(const json_t *json, struct sorc_action *ret_a, struct game_error *err);

/* Encodes *a in canonical form. New reference, NULL on ENOMEM. */
json_t *sorc_action_encode(const struct sorc_action *a);

/* The object sorc_action_encode() gives for *a (a type it knows), written as
 * canonical text into `w`. */
void sorc_action_write(struct game_text *w, const struct sorc_action *a);

/* game_ops.options_schema: new reference, NULL on ENOMEM. */
json_t *sorc__options_schema(void);

/* Parses `options` (borrowed; NULL or null for the defaults) for `nseats`
 * seats into *ret_seat (the Merlinian seat, -1 random) and *ret_max_turns.
 * GAME_OK, or GAME_E_BAD_OPTION with a message in `err`. */
int sorc__options_parse(const json_t *options, int nseats, int *ret_seat, int *ret_max_turns,
                        struct game_error *err);

/* The actions of `l` as a JSON array in list order; new reference, NULL on
 * ENOMEM. */
json_t *sorc__legal_encode(const struct sorc_legal *l);

/* The array sorc__legal_encode() gives for `l`, written as canonical text
 * into `w`. */
void sorc__legal_write(struct game_text *w, const struct sorc_legal *l);

/* Builds a position in *st from `pos` (borrowed): {"seed", "merlinian_seat",
 * "turn", "max_turns", "dave", "morgana", "play": [{"card", "objects"}],
 * "hands": {"mer", "mor"}, "discard", "deck" (top first), "rest": "deck",
 * "discard" or "hand_mer" (where unlisted cards go, list order), "gates",
 * "start": "lore" | "recruit" | "recruit_mor" | "event" | "event_priority"
 * (with "priority" and "last_pass") | "encounter" | "duel" (with "duel":
 * [mer, mor]) | "end", "result": {"reason", "winner": "mer" | "mor" |
 * null} for a finished game}. Runs the automatic steps from `start`. Returns 0, or
 * -1 with a message in `err`. Tests only. */
int sorc_state_load(struct sorc_state *st, const json_t *pos, struct game_error *err);

/* Zones and counters of *st in the position format (without "start");
 * new reference. Tests only. */
json_t *sorc_state_dump(const struct sorc_state *st);

/* ---- Shared functions of the rules (sorc__ = internal to the core) ---- */

/* Side of `seat` and seat of `side`. */
int sorc__side(const struct sorc_state *st, int seat);
int sorc__seat(const struct sorc_state *st, int side);

/* Sets up a new game in `st` (zeroed by the caller). merlinian_seat is 0, 1
 * or -1 (random from the generator); max_turns 0 means no limit. */
void sorc__setup(struct sorc_state *st, const uint8_t seed[32], int merlinian_seat, int max_turns,
                 const char *name0, const char *name1);

/* Continues the automatic steps until some seat must decide or the game is
 * over. Used by setup and by position loading. */
void sorc__run(struct sorc_state *st);

/* Validates and applies `a` for `seat`, an active seat, on `st` (a scratch
 * copy: on a refusal the caller discards it, half-changed or not). Returns
 * GAME_OK or a game_status with the refusal in `err`. */
int sorc__rules_apply(struct sorc_state *st, int seat, const struct sorc_action *a,
                      struct game_error *err);

/* Fills `out` with every action `seat` may send now. */
void sorc__legal_list(const struct sorc_state *st, int seat, struct sorc_legal *out);

/* game_ops.check_invariants: 0 when every invariant of the state holds,
 * else -1 with a description in `err`. */
int sorc__check_invariants(const void *state, struct game_error *err);

/* GAME_OK when `seat` has a decision now, else GAME_E_OVER or
 * GAME_E_NOT_TURN with a message (R-sorcerers-4.4). */
int sorc__may_act(const struct sorc_state *st, int seat, struct game_error *err);

/* game_ops.forfeit and game_ops.skip (sorc_timeout.c): what a turn
 * clock's timeout does (R-sorcerers-7.1). */
int sorc__forfeit(void *state, int seat, struct game_error *err);
int sorc__skip(void *state, int seat, struct game_error *err);

/* game_ops.undoable (sorc_undo.c): whether the action of `seat` from
 * `before` to `after` drew and revealed nothing hidden (R-sorcerers-7.2). */
bool sorc__undoable(const void *before, const void *after, int seat);

/* Helpers the view and legal list share with the rules. */
int sorc__find_inplay(const struct sorc_state *st, uint8_t card);
int sorc__controller(uint8_t card); /* side controlling a sorcerer card */
int sorc__has_kw(const struct sorc_state *st, int ip, uint64_t kw);
int sorc__hand_limit(const struct sorc_state *st, int side);
int sorc__count_side(const struct sorc_state *st, int side);
int sorc__grim_carrier(const struct sorc_state *st); /* inplay index or -1 */
void sorc__totals(struct sorc_state *st);
int sorc__negator_has_target(const struct sorc_state *st, int side, int slot);
int sorc__negate_target_ok(const struct sorc_state *st, int side, int slot, uint8_t target);
const char *sorc__phase_name(int phase);
const char *sorc__reason_name(int reason);
int sorc__hand_index(const struct sorc_state *st, int side, uint8_t card);
int sorc__is_sorcerer(uint8_t card);
int sorc__can_betray(const struct sorc_state *st, int side);
int sorc__defense_ok(const struct sorc_state *st, int side, uint8_t d, uint8_t t);
int sorc__is_defense_negator(uint8_t d);
/* Appends a line to the log and its message (`key` and the arguments) to
 * the log's messages; `key` names its template in lang/sorcerers.json. */
void sorc__log(struct sorc_state *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *sorc__name(const struct sorc_state *st, int side);
int sorc__hand_take(struct sorc_state *st, int side, uint8_t card);
void sorc__hand_add(struct sorc_state *st, int side, uint8_t card);
void sorc__discard(struct sorc_state *st, uint8_t card);
void sorc__shuffle_deck(struct sorc_state *st);
void sorc__draw(struct sorc_state *st, int side, int n);
int sorc__carrier(const struct sorc_state *st, uint8_t obj, int *ret_pos);
int sorc__detach(struct sorc_state *st, uint8_t obj);
void sorc__attach(struct sorc_state *st, int ip, uint8_t obj);
int sorc__enter_play(struct sorc_state *st, uint8_t card);
void sorc__remove(struct sorc_state *st, uint8_t card);
int sorc__researchers(const struct sorc_state *st, int side);
int sorc__slot_has(const struct sorc_state *st, int side, int slot, uint64_t kw);

/* ---- sorc_tests.c: the hooks of the shared test suites (game_tests.h) ---- */

struct game_tests;
extern const struct game_tests sorc_tests;

/* ---- sorc_bot.c: what a bot searches with (game.h, struct game_bot) ---- */

extern const struct game_bot sorc_bot;

/* Clears the sealed data of `cb` to what it is when the sealed state
 * `phase` opens; false (nothing done) when `phase` is not sealed. */
bool sorc__sealed_clear(struct sorc_combo *cb, int phase);

#endif
