/* SPDX-License-Identifier: MIT */
/*
 * arcana.h - the one internal header of the Res Arcana rules core (game id
 * "arcana"): the card table types, the flat pointer-free state, the decoded
 * action and the declarations shared by the arcana_*.c files. The state is
 * copied with memcpy and compared with memcmp. Section ids such as
 * R-arcana-6 refer to docs/rules/arcana.md, numbered like the specification.
 */
#ifndef CONCLAVE_ARCANA_H
#define CONCLAVE_ARCANA_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

#define ARC_NCARDS 78
#define ARC_NART 40
#define ARC_FIRST_MAGE 40
#define ARC_FIRST_ITEM 50
#define ARC_FIRST_MON 58
#define ARC_FIRST_POP 68
#define ARC_MAX_SEATS 4
#define ARC_CAP 1000000    /* I-22: the cap of one count */
#define ARC_ROUND_LIMIT 50 /* I-21 */
#define ARC_WIN_VP 10      /* R-arcana-9 */
#define ARC_LOG_N 8
#define ARC_LOG_LEN 128
#define ARC_MAX_OPTS 256 /* options of one decision: (2 x hand) + 8 + powers + 1 at most */

enum arc_ess { ARC_E = 0, ARC_L, ARC_C, ARC_D, ARC_G, ARC_NESS };
#define ARC_ALL_MASK 0x1f
#define ARC_NOGOLD_MASK 0x0f

enum arc_kind { ARC_K_ARTIFACT = 0, ARC_K_MAGE, ARC_K_ITEM, ARC_K_MONUMENT, ARC_K_POP };
#define ARC_TAG_DRAGON 1
#define ARC_TAG_CREATURE 2

enum arc_opcode {
    ARC_OP_NONE = 0,
    ARC_OP_TURN_SELF,
    ARC_OP_PAY,
    ARC_OP_PAY_ANY,
    ARC_OP_PAY_CHOICE,
    ARC_OP_PAY_SAME,
    ARC_OP_REMOVE_SELF,
    ARC_OP_TURN_OWN,
    ARC_OP_DESTROY_SELF,
    ARC_OP_DESTROY_OWN,
    ARC_OP_DISCARD_HAND,
    ARC_OP_GAIN,
    ARC_OP_GAIN_ANY,
    ARC_OP_GAIN_CHOICE,
    ARC_OP_PLACE_SELF,
    ARC_OP_PLACE_ANY_SELF,
    ARC_OP_PLACE_SPENT_SELF,
    ARC_OP_PLACE_SPENT_OWN,
    ARC_OP_RIVALS_GAIN,
    ARC_OP_RIVALS_LOSE,
    ARC_OP_GAIN_RIVAL,
    ARC_OP_DRAW,
    ARC_OP_DRAW_DISCARD,
    ARC_OP_LOOK,
    ARC_OP_STRAIGHTEN_OWN,
    ARC_OP_STRAIGHTEN_SELF,
    ARC_OP_GAIN_BOUND,
    ARC_OP_GAIN_COST,
    ARC_OP_PLACE_ARTIFACT,
    ARC_OP_CHECK_VICTORY,
    ARC_OP_IGNORE,
    ARC_OP_TEMP_VP,
    ARC_OP_IF_LEFT,
    ARC_OP_WIND,
    ARC_OP_UPKEEP,
};

enum arc_ignore { ARC_IG_NONE = 0, ARC_IG_PAY, ARC_IG_DISCARD, ARC_IG_DESTROY };
enum arc_from { ARC_Z_FROM_HAND = 0, ARC_Z_FROM_OWN_DISCARD, ARC_Z_FROM_ANY_DISCARD };
#define ARC_PF_NOGOLD 1
#define ARC_PF_ZERO 2
enum arc_pw_kind { ARC_PW_NONE = 0, ARC_PW_ACTION, ARC_PW_REACT };
enum arc_trigger { ARC_TR_NONE = 0, ARC_TR_LIFE, ARC_TR_DRAGON, ARC_TR_VICTORY };
enum arc_when { ARC_W_STRAIGHT = 0, ARC_W_TURNED, ARC_W_EITHER };
enum arc_vp_per { ARC_VP_NONE = 0, ARC_VP_ESSENCE, ARC_VP_TAG };
enum arc_disc { ARC_DISC_NONE = 0, ARC_DISC_ARTIFACT, ARC_DISC_DRAGON };

/* One primitive of the vocabulary (R-arcana-12), its fields by op. */
struct arc_op {
    uint8_t op;
    uint8_t ess[ARC_NESS]; /* pay, gain, place, remove, rivals_gain, upkeep; ignore pay */
    uint8_t count;         /* count, amount, plus, reduce, temp vp */
    uint8_t mask;          /* allowed types */
    uint8_t tag;           /* tag filter */
    uint8_t flag;          /* exclude_self, as, place flags */
    uint8_t arg;           /* ignore kind, zone, gain type, if_left essence */
    uint8_t arg2;          /* count type, if_left's then-op */
};

struct arc_power {
    uint8_t kind;
    uint8_t trigger;
    uint8_t when;
    uint8_t ncost;
    uint8_t neff;
    struct arc_op cost[3];
    struct arc_op eff[2];
};

struct arc_card {
    const char *id;
    const char *name;
    uint8_t kind;
    uint8_t tags;
    uint8_t cost[ARC_NESS];
    uint8_t cost_any;
    uint8_t vp;
    uint8_t preset;
    uint8_t nvp;
    struct {
        uint8_t per;
        uint8_t arg;
        uint8_t vp;
    } vp_per[2];
    uint8_t ncollect;
    struct arc_op collect[1];
    struct {
        uint8_t applies;
        uint8_t amount;
        uint8_t nogold;
    } disc;
    uint8_t nclaim;
    struct arc_op on_claim[1];
    uint8_t npw;
    struct arc_power pw[2];
    uint8_t pop_board; /* 1..5 for a Place of Power face */
    uint8_t pop_side;  /* 0 = A, 1 = B */
    uint8_t pop_first; /* the first-game side */
    uint8_t pop_other; /* the id of the other face */
};

enum arc_card_id {
    ARC_ID_ATHANOR,
    ARC_ID_BONE_DRAGON,
    ARC_ID_CELESTIAL_HORSE,
    ARC_ID_CHALICE_OF_FIRE,
    ARC_ID_CHALICE_OF_LIFE,
    ARC_ID_CORRUPT_ALTAR,
    ARC_ID_CRYPT,
    ARC_ID_CURSED_SKULL,
    ARC_ID_DANCING_SWORD,
    ARC_ID_DRAGON_BRIDLE,
    ARC_ID_DRAGON_EGG,
    ARC_ID_DRAGON_TEETH,
    ARC_ID_DWARVEN_PICKAXE,
    ARC_ID_EARTH_DRAGON,
    ARC_ID_ELEMENTAL_SPRING,
    ARC_ID_ELVISH_BOW,
    ARC_ID_FIERY_WHIP,
    ARC_ID_FIRE_DRAGON,
    ARC_ID_FLAMING_PIT,
    ARC_ID_FOUNTAIN_OF_YOUTH,
    ARC_ID_GUARD_DOG,
    ARC_ID_HAND_OF_GLORY,
    ARC_ID_HAWK,
    ARC_ID_HORN_OF_PLENTY,
    ARC_ID_HYPNOTIC_BASIN,
    ARC_ID_JEWELED_STATUETTE,
    ARC_ID_MAGICAL_SHARD,
    ARC_ID_MERMAID,
    ARC_ID_NIGHTINGALE,
    ARC_ID_PHILOSOPHERS_STONE,
    ARC_ID_PRISM,
    ARC_ID_RING_OF_MIDAS,
    ARC_ID_SACRIFICIAL_DAGGER,
    ARC_ID_SEA_SERPENT,
    ARC_ID_TREANT,
    ARC_ID_TREE_OF_LIFE,
    ARC_ID_VAULT,
    ARC_ID_WATER_DRAGON,
    ARC_ID_WIND_DRAGON,
    ARC_ID_WINDUP_MAN,
    ARC_ID_ALCHEMIST,
    ARC_ID_ARTIFICER,
    ARC_ID_DRUID,
    ARC_ID_DUELIST,
    ARC_ID_HEALER,
    ARC_ID_NECROMANCER,
    ARC_ID_SCHOLAR,
    ARC_ID_SEER,
    ARC_ID_TRANSMUTER,
    ARC_ID_WITCH,
    ARC_ID_ALCHEMY,
    ARC_ID_CALM_ELAN,
    ARC_ID_DEATH_LIFE,
    ARC_ID_DIVINATION,
    ARC_ID_PROTECTION,
    ARC_ID_REANIMATE,
    ARC_ID_RESEARCH,
    ARC_ID_TRANSMUTATION,
    ARC_ID_COLOSSUS,
    ARC_ID_GOLDEN_STATUE,
    ARC_ID_GREAT_PYRAMID,
    ARC_ID_HANGING_GARDENS,
    ARC_ID_LIBRARY,
    ARC_ID_MAUSOLEUM,
    ARC_ID_OBELISK,
    ARC_ID_ORACLE,
    ARC_ID_SOLOMONS_MINE,
    ARC_ID_TEMPLE,
    ARC_ID_SACRED_GROVE,
    ARC_ID_ALCHEMISTS_TOWER,
    ARC_ID_CURSED_FORGE,
    ARC_ID_DWARVEN_MINES,
    ARC_ID_CORAL_CASTLE,
    ARC_ID_SUNKEN_REEF,
    ARC_ID_CATACOMBS_OF_THE_DEAD,
    ARC_ID_SACRIFICIAL_PIT,
    ARC_ID_DRAGONS_LAIR,
    ARC_ID_SORCERERS_BESTIARY,
};

extern const struct arc_card arc_cards[ARC_NCARDS];

/* ---- State ---- */

/* Where a card is (R-arcana-1, 11.7). */
enum arc_loc {
    ARC_L_OUT = 0, /* out of this game */
    ARC_L_HAND,
    ARC_L_DECK,
    ARC_L_DISCARD,
    ARC_L_PLAY,
    ARC_L_DISPLAY, /* monument display */
    ARC_L_MDECK,   /* monument deck */
    ARC_L_SUPPLY,  /* magic item supply */
    ARC_L_BOARD,   /* unclaimed Place of Power */
    ARC_L_PACK,    /* draft pack in front of `owner` */
    ARC_L_KEPT,    /* drafted, not yet shuffled */
    ARC_L_MAGEOPT, /* one of the two mages dealt to `owner` */
    ARC_L_LOOK,    /* being looked at by `owner` */
    ARC_L_PLACING, /* being placed by an open decision */
    ARC_L_POOL,    /* duel: face-up draft pool */
    ARC_L_UNUSED,  /* the other face of a Place of Power */
};

enum arc_phase {
    ARC_PH_SETUP_MAGE = 0,
    ARC_PH_DRAFT,
    ARC_PH_SETUP_ITEM,
    ARC_PH_COLLECT,
    ARC_PH_ACTIONS,
    ARC_PH_VICTORY,
    ARC_PH_MATCH_FIRST,
    ARC_PH_MATCH_DRAFT,
    ARC_PH_ENDED,
};

/* The open decision (R-arcana-5.7). */
enum arc_dec {
    ARC_D_NONE = 0,
    ARC_D_TOP,
    ARC_D_PAY,
    ARC_D_SAME,
    ARC_D_SAME_MORE,
    ARC_D_GAIN,
    ARC_D_GAIN_DISCARD,
    ARC_D_TARGET,
    ARC_D_RIVAL,
    ARC_D_DECK,
    ARC_D_ORDER,
    ARC_D_RESPOND,
    ARC_D_LOSE,
    ARC_D_STATUE,
    ARC_D_ITEM,
    ARC_D_TAKE,
    ARC_D_FORGE,
    ARC_D_MAGE,
    ARC_D_DRAFT,
    ARC_D_FIRST,
    ARC_D_MDRAFT,
    ARC_D_COUNT,
};

/* What a target decision is for. */
enum arc_why {
    ARC_WHY_NONE = 0,
    ARC_WHY_DESTROY,    /* destroy_own_artifact cost */
    ARC_WHY_DISCARD,    /* discard_from_hand cost / Divination */
    ARC_WHY_PLACE,      /* place_artifact effect */
    ARC_WHY_STRAIGHTEN, /* straighten_own */
    ARC_WHY_TURN,       /* turn_own cost */
    ARC_WHY_RECEIVE,    /* Mermaid's essence */
    ARC_WHY_IG_DISCARD, /* Wind Dragon's ignore cost */
    ARC_WHY_IG_DESTROY, /* Sea Serpent's ignore cost */
    ARC_WHY_COUNT,
};

/* What the current action is. */
enum arc_res_kind {
    ARC_R_NONE = 0,
    ARC_R_POWER,
    ARC_R_PLACE,   /* place from hand (5.1) */
    ARC_R_CLAIM,   /* monument on_claim gains (5.2) */
    ARC_R_DISCARD, /* discard gain (5.4) */
    ARC_R_PASS,    /* item step (8) */
};

/* Where a pay/gain step sends its essence. */
enum arc_dest { ARC_DEST_POOL = 0, ARC_DEST_SELF };

enum arc_action_type {
    ARC_A_NONE = 0,
    ARC_A_PLACE,
    ARC_A_MONUMENT,
    ARC_A_POP,
    ARC_A_DISCARD,
    ARC_A_POWER,
    ARC_A_PASS,
    ARC_A_PAY,
    ARC_A_SAME,
    ARC_A_MORE,
    ARC_A_DONE,
    ARC_A_GAIN,
    ARC_A_TARGET,
    ARC_A_RIVAL,
    ARC_A_DECK,
    ARC_A_ORDER,
    ARC_A_RESPOND,
    ARC_A_LOSE,
    ARC_A_STATUE,
    ARC_A_ITEM,
    ARC_A_TAKE,
    ARC_A_LEAVE,
    ARC_A_FORGE,
    ARC_A_MAGE,
    ARC_A_DRAFT,
    ARC_A_FIRST,
    ARC_A_COUNT,
};

#define ARC_NONE_ARG (-1) /* "none": no target, X = 0 */
#define ARC_DECK_ARG 100  /* monument: the deck top */

/* A decoded action: `type`, and `a` (card, essence, seat, deck, response
 * kind: 0 lose, 1 ignore, 2 react; forge 0 pay, 1 turn; statue 0/1) and
 * `b` (power index; react card in `c`). */
struct arc_action {
    int8_t type;
    int8_t a;
    int8_t b;
    int8_t c;
};

struct arc_cardst {
    uint8_t loc;
    int8_t owner;
    uint8_t turned;
    uint8_t pad;
    uint32_t seq; /* order inside its zone; a deck's top is the highest */
    int32_t ess[ARC_NESS];
};

struct arc_seat {
    int32_t pool[ARC_NESS];
    uint8_t passed;
    int8_t mage;      /* the mage in play, or -1 */
    int8_t item;      /* the magic item held, or -1 */
    int8_t mage_pick; /* setup: the secret choice, or -1 */
    int8_t draft_pick;
    int8_t looked_deck; /* -1, 0 own deck, 1 monuments: last look, for the view */
    uint8_t looked_n;
    int8_t known_own[3];
    uint8_t known_own_n;
    int8_t known_mon[3];
    uint8_t known_mon_n;
};

/* The action being resolved (R-arcana-5.7). */
struct arc_res {
    uint8_t kind; /* enum arc_res_kind */
    int8_t actor;
    int8_t src; /* the card whose power, or the card placed / claimed / discarded */
    int8_t power;
    uint8_t part; /* 0 costs, 1 effects */
    uint8_t pc;   /* index of the primitive in the part */
    uint8_t entered;
    /* pay / gain / lose steps */
    uint8_t mask;
    uint8_t dest;
    int16_t left;
    int32_t paid[ARC_NESS];
    /* bindings */
    int8_t bind_type; /* same-type or spent type, -1 none */
    int32_t bind_x;
    int16_t bind_t;  /* printed total of a destroyed / discarded card */
    uint8_t why;     /* enum arc_why, for target steps */
    uint8_t paymode; /* 0 any N, 1 placement, 2 one of a list */
    uint8_t gainx;   /* a gain step gives bind_x essences (Prism) */
    uint8_t from_display;
    uint8_t tag;
    uint8_t flag;
    /* a placement in progress */
    int8_t placing; /* card, or -1 */
    int8_t place_from_seat;
    uint8_t place_reduce; /* the power's own discount (R-arcana-6) */
    uint8_t place_flag;   /* ARC_PF_NOGOLD, ARC_PF_ZERO */
    int16_t place_k;      /* essences to pay */
    /* life loss */
    int8_t ll_rival; /* the rival being asked, -1 none */
    uint8_t ll_i;    /* offset of the next rival from the attacker */
    uint8_t ll_amount;
    uint8_t ll_stage; /* 0 respond, 1 target, 2 lose */
    /* look */
    int8_t look_deck;
    uint8_t look_n;
    uint8_t look_done;
    int8_t look_cards[3];
    /* divination */
    uint8_t div_left;
    int8_t returned_item;
};

/* Collect of one seat (R-arcana-4). */
struct arc_collect {
    int8_t seat;
    uint8_t stage; /* 0 take/leave, 1 gains, 2 forge, 3 done */
    uint8_t n, i;
    int8_t list[ARC_NCARDS];
    uint8_t vault_left[ARC_NCARDS];
    uint8_t gq_n, gq_i;
    uint8_t gq_mask[32];
    uint8_t gq_left[32];
    uint8_t seats_done;
};

struct arc_match {
    uint8_t on;   /* duel */
    uint8_t game; /* 1..3 */
    uint8_t score[2];
    uint8_t ngames;
    int8_t winners[3]; /* bit mask of the winners of each game */
    int8_t decider;
    uint8_t picks_left; /* picks of the current drafting turn */
    uint8_t pick_turn;  /* index into the 1,2,..,2,1 schedule */
    int8_t drafter;
    uint8_t setup;            /* the room's setup option for game 1 */
    int8_t drafted[ARC_NART]; /* face-up draft: seat + 1 that took the card */
};

struct arc_core {
    struct game_rng rng; /* never shown */
    uint8_t nseats;
    uint8_t setup; /* 0 standard, 1 first_game, 2 draft */
    uint8_t phase;
    uint8_t dec; /* enum arc_dec */
    int8_t dec_seat;
    int8_t cur;            /* current player (actions) */
    int8_t first;          /* First Player token */
    int8_t first_at_start; /* First Player when this game began */
    uint8_t first_passed;
    int16_t round;
    uint32_t seq;
    int8_t item_order[ARC_MAX_SEATS];
    uint8_t item_i;
    uint8_t draft_round; /* 0 left, 1 right */
    uint8_t statue_mid;  /* the victory check is mid-round */
    uint8_t statue_used;
    int8_t statue_seat;
    uint8_t over;
    uint8_t round_limit;
    int32_t final_vp[ARC_MAX_SEATS];
    int32_t final_tb[ARC_MAX_SEATS];
    uint8_t winners;               /* bit mask */
    int8_t forfeit;                /* the seat that forfeited, or -1 */
    uint16_t draws[ARC_MAX_SEATS]; /* cards drawn so far, for the log */
    struct arc_cardst card[ARC_NCARDS];
    struct arc_seat seat[ARC_MAX_SEATS];
    struct arc_res res;
    struct arc_collect col;
    struct arc_match match;
};

struct arc_state {
    struct arc_core c;
    char names[ARC_MAX_SEATS][GAME_NAME_MAX];
    char log[ARC_LOG_N][ARC_LOG_LEN];
    /* log_msg[k]: the message of log[k] (game_format_msg(), lang/arcana.json). */
    char log_msg[ARC_LOG_N][ARC_LOG_LEN];
    int8_t log_n;
    int8_t log_head;
    uint32_t log_seq; /* lines ever logged (the view's log items, game.h) */
};

extern const char *const arc_ess_name[ARC_NESS];
extern const char *const arc_phase_name[];
extern const char *const arc_dec_name[ARC_D_COUNT];
extern const char *const arc_why_name[ARC_WHY_COUNT];

/* ---- Rules (arcana_rules.c) ---- */

/* Appends a line to the log and its message (`key` and the arguments) to
 * the log's messages; `key` names its template in lang/arcana.json. */
void arc__log(struct arc_state *st, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int arc__card_find(const char *id);
void arc__setup(struct arc_state *st, int nseats, int setup, int duel, const struct game_setup *gs);
/* Bit mask of the seats that may act now; 0 when over. */
unsigned arc__active(const struct arc_core *c);
/* The options of `seat` now, at most `max`; returns how many. */
int arc__options(const struct arc_core *c, int seat, struct arc_action *ret, int max);
/* Applies a listed option and every automatic step after it; GAME_OK or
 * a refusal (and then nothing changed). */
int arc__act(struct arc_state *st, int seat, const struct arc_action *a, struct game_error *err);
/* Runs automatic steps until some seat has a real choice. */
void arc__settle(struct arc_state *st);
int arc__vp(const struct arc_core *c, int seat);
int arc__tiebreak(const struct arc_core *c, int seat);
/* Components of `seat` in component order (R-arcana-1); returns how many. */
int arc__components(const struct arc_core *c, int seat, int8_t ret[ARC_NCARDS]);
/* Cards at `loc` of `owner` (-1: any) sorted by seq (deck: bottom first). */
int arc__zone(const struct arc_core *c, int loc, int owner, int8_t ret[ARC_NCARDS]);
/* How many cards arc__zone() would list, without listing them. */
int arc__zone_count(const struct arc_core *c, int loc, int owner);
int arc__printed_total(int card);
/* Empties the action being resolved, and a seat's record. */
void arc__reset_res(struct arc_core *c);
void arc__reset_seat(struct arc_seat *p);
/* Starts the Collect step of the current round (test positions). */
void arc__begin_collect(struct arc_core *c);

/* ---- Timeouts (arcana_timeout.c) ---- */

/* Ends the game (a duel: the match) with `seat` forfeiting, an active
 * seat of a running game (R-arcana-15.1). */
void arc__forfeit(struct arc_state *st, int seat);
/* Takes the least option of each open decision of `seat`, an active seat
 * of a running game, until its turn or its part of the step is done
 * (R-arcana-15.2). GAME_OK, or GAME_E_ILLEGAL (nothing changed) when the
 * decision lists nothing. */
int arc__skip(struct arc_state *st, int seat, struct game_error *err);
/* The seats of a forfeited game, best first: the others by VP and
 * tiebreak (ties by seat number), the forfeiting seat last. Returns how
 * many. */
int arc__ranking(const struct arc_core *c, int8_t ret[ARC_MAX_SEATS]);

/* ---- Undo (arcana_undo.c) ---- */

/* game.h `undoable`: 1 when the action of `seat` that took `before` to
 * `after` drew and revealed nothing hidden (R-arcana-16). */
bool arc__undoable(const void *before, const void *after, int seat);

/* ---- Codec (arcana_codec.c) ---- */

json_t *arc__options_schema(void);
int arc__options_decode(const json_t *options, int nseats, int *ret_setup, int *ret_duel,
                        struct game_error *err);
int arc__action_decode(const json_t *j, struct arc_action *ret, struct game_error *err);
json_t *arc__action_encode(const struct arc_action *a);
/* The object arc__action_encode() gives for *a, written as canonical text
 * into `w`. */
void arc__action_write(struct game_text *w, const struct arc_action *a);
int arc__state_load(const json_t *pos, struct arc_state *st, struct game_error *err);

/* ---- View (arcana_view.c) ---- */

enum arc_section {
    ARC_S_ACTIVE = 0,
    ARC_S_BOARD,
    ARC_S_DECISION,
    ARC_S_GAME,
    ARC_S_LOG,
    ARC_S_LOG_KEYS,
    ARC_S_MATCH,
    ARC_S_PHASE,
    ARC_S_RESULT,
    ARC_S_ROUND,
    ARC_S_SEATS,
    ARC_NSECTIONS,
};

extern const struct game_section arc__sections[ARC_NSECTIONS];
uint64_t arc__changed(const void *before, const void *after);
void arc__parts_changed(const void *before, const void *after, unsigned *items, unsigned *you);
void arc__you(struct game_text *out, const void *state, int seat);

int arc__check_invariants(const void *state, struct game_error *err);
extern const struct game_tests arcana_tests;

/* ---- Bots (arcana_bot.c) ---- */

extern const struct game_bot arcana_bot;
extern const struct game_ops arcana_game;

#endif
