/* SPDX-License-Identifier: MIT */
/*
 * test_arcana.c - the Res Arcana renderer as a player meets it: views built
 * by hand after docs/rules/arcana.md section 0 (the actions step with an
 * open payment, the setup, the draft, a duel with a life loss, the end) are
 * drawn with what a player needs, in 80 columns, and a view with members
 * missing or of the wrong type draws without a crash; every typed command
 * gives the exact action object of the document, and a bad one an error;
 * `card` finds cards by a prefix of the id or name and says what they cost
 * and do; every action type has its words. Once the rules core is linked,
 * random games of every setup are drawn at each step within 80 columns,
 * and every entry of each `legal` list is typed back (by id and by name)
 * into the very same action.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck_run.h"
#include "game.h"
#include "render.h"

/* The actions step of round 2: Ann (seat 0, the viewer) places Fire Dragon
 * and has 3 essences left to pay; Bob has passed and holds the First Player
 * token on its passed side. */
static const char actions_view[] =
    "{\"game\":\"arcana\",\"phase\":\"actions\",\"round\":2,\"active\":[0],"
    "\"board\":{\"display\":[\"colossus\",\"oracle\"],\"first\":1,\"first_passed\":true,"
    "\"monument_deck\":6,\"pops\":["
    "{\"card\":\"sacred_grove\",\"essences\":{\"life\":2},\"owner\":0,\"turned\":true},"
    "{\"card\":\"cursed_forge\",\"essences\":{},\"owner\":null,\"turned\":false},"
    "{\"card\":\"coral_castle\",\"essences\":{},\"owner\":null,\"turned\":false},"
    "{\"card\":\"sacrificial_pit\",\"essences\":{},\"owner\":null,\"turned\":false},"
    "{\"card\":\"dragons_lair\",\"essences\":{},\"owner\":null,\"turned\":false}],"
    "\"supply\":[\"alchemy\",\"calm_elan\",\"divination\",\"protection\",\"reanimate\","
    "\"transmutation\"]},"
    "\"decision\":{\"kind\":\"pay\",\"seat\":0,\"card\":null,\"power\":null,\"left\":3,"
    "\"paid\":{\"elan\":2},\"placing\":\"fire_dragon\"},"
    "\"log\":[\"Bob passed and took Death / Life\",\"Ann placed Fire Dragon\"],"
    "\"match\":null,\"result\":null,"
    "\"seats\":["
    "{\"name\":\"Ann\",\"pool\":{\"elan\":3,\"life\":1,\"calm\":0,\"death\":2,\"gold\":1},"
    "\"hand\":3,\"deck\":4,\"discard\":[\"hawk\"],\"mage\":\"seer\",\"mage_chosen\":true,"
    "\"item\":\"research\",\"play\":[{\"card\":\"seer\",\"essences\":{},\"turned\":false},"
    "{\"card\":\"research\",\"essences\":{},\"turned\":true},"
    "{\"card\":\"vault\",\"essences\":{\"gold\":2},\"turned\":true},"
    "{\"card\":\"sacred_grove\",\"essences\":{\"life\":2},\"turned\":true}],"
    "\"passed\":false,\"vp\":4,\"kept\":0,\"picked\":false,\"looked\":null},"
    "{\"name\":\"Bob\",\"pool\":{\"elan\":0,\"life\":4,\"calm\":2,\"death\":0,\"gold\":3},"
    "\"hand\":5,\"deck\":2,\"discard\":[],\"mage\":\"witch\",\"mage_chosen\":true,"
    "\"item\":\"death_life\",\"play\":[{\"card\":\"witch\",\"essences\":{},\"turned\":false},"
    "{\"card\":\"death_life\",\"essences\":{},\"turned\":false},"
    "{\"card\":\"tree_of_life\",\"essences\":{},\"turned\":false}],"
    "\"passed\":true,\"vp\":1,\"kept\":0,\"picked\":false,"
    "\"looked\":{\"deck\":\"monument\",\"count\":3}}],"
    "\"you\":{\"seat\":0,\"hand\":[\"fire_dragon\",\"elvish_bow\",\"prism\"],\"pack\":[],"
    "\"kept\":[],\"looking\":[],\"deck_top\":[\"mermaid\",\"treant\"],\"monument_top\":[]}}";

static const char setup_view[] =
    "{\"game\":\"arcana\",\"phase\":\"setup_mage\",\"round\":0,\"active\":[0,1],"
    "\"board\":{\"display\":[\"temple\",\"library\"],\"first\":0,\"first_passed\":false,"
    "\"monument_deck\":8,\"pops\":[],\"supply\":[]},\"decision\":{\"kind\":\"mage\",\"seat\":0,"
    "\"card\":null,\"power\":null},\"log\":[],\"match\":null,\"result\":null,"
    "\"seats\":[{\"name\":\"Ann\",\"pool\":{\"elan\":1,\"life\":1,\"calm\":1,\"death\":1,"
    "\"gold\":1},\"hand\":3,\"deck\":5,\"discard\":[],\"mage\":null,\"mage_chosen\":true,"
    "\"item\":null,\"play\":[],\"passed\":false,\"vp\":0},"
    "{\"name\":\"Bob\",\"pool\":{},\"hand\":3,\"deck\":5,\"discard\":[],\"mage\":null,"
    "\"mage_chosen\":false,\"item\":null,\"play\":[],\"passed\":false,\"vp\":0}],"
    "\"you\":{\"seat\":0,\"hand\":[\"vault\",\"hawk\",\"prism\"],\"mages\":[\"druid\","
    "\"alchemist\"],\"mage\":\"druid\"}}";

static const char draft_view[] =
    "{\"game\":\"arcana\",\"phase\":\"draft\",\"round\":0,\"active\":[1],"
    "\"board\":{\"display\":[],\"monument_deck\":8,\"pops\":[],\"supply\":[]},"
    "\"decision\":{\"kind\":\"draft\",\"seat\":1},\"log\":[],\"match\":null,\"result\":null,"
    "\"seats\":[{\"name\":\"Ann\",\"kept\":2,\"picked\":true},{\"name\":\"Bob\",\"kept\":1,"
    "\"picked\":false}],\"you\":{\"seat\":1,\"hand\":[],\"pack\":[\"dragon_egg\","
    "\"dragon_teeth\",\"windup_man\"],\"kept\":[\"athanor\"],\"pick\":null}}";

/* A duel, game 2 (Bob won game 1): Ann's Fire Dragon attacks Bob, who is
 * asked. */
static const char duel_view[] =
    "{\"game\":\"arcana\",\"phase\":\"actions\",\"round\":1,\"active\":[1],"
    "\"board\":{\"display\":[\"obelisk\"],\"first\":0,\"first_passed\":false,"
    "\"monument_deck\":0,\"pops\":[],\"supply\":[]},"
    "\"decision\":{\"kind\":\"respond\",\"seat\":1,\"card\":\"fire_dragon\",\"power\":0,"
    "\"attacker\":0,\"amount\":2},\"log\":[\"Ann used Fire Dragon\"],"
    "\"match\":{\"game\":2,\"score\":[0,1],\"results\":[{\"winners\":[1]}],"
    "\"pool\":[\"hawk\",\"crypt\"]},\"result\":null,"
    "\"seats\":[{\"name\":\"Ann\",\"vp\":2},{\"name\":\"Bob\",\"vp\":3,\"play\":["
    "{\"card\":\"healer\",\"essences\":{},\"turned\":false}],\"mage\":\"healer\"}],"
    "\"you\":{\"seat\":1,\"hand\":[\"nightingale\"]}}";

static const char ended_view[] =
    "{\"game\":\"arcana\",\"phase\":\"ended\",\"round\":5,\"active\":[],\"decision\":null,"
    "\"board\":{\"display\":[],\"monument_deck\":3,\"pops\":[],\"supply\":[]},\"log\":[],"
    "\"match\":null,\"seats\":[{\"name\":\"Ann\",\"vp\":11},{\"name\":\"Bob\",\"vp\":11}],"
    "\"result\":{\"scores\":[11,11],\"tiebreak\":[4,8],\"winners\":[1],"
    "\"round_limit\":false}}";

static char *drawn_as(const char *json, int seat, bool colour)
{
    const struct render_ops *ro = render_find("arcana");
    struct render_style st = {colour};
    json_error_t jerr;
    json_t *view = json_loads(json, 0, &jerr);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    ck_assert_msg(view != NULL, "bad test view: %s at %d", jerr.text, jerr.position);
    ck_assert_ptr_nonnull(ro);
    ro->draw(out, view, seat, &st);
    fclose(out);
    json_decref(view);
    return text;
}

static void assert_has(const char *text, const char *want)
{
    ck_assert_msg(strstr(text, want) != NULL, "\"%s\" missing from:\n%s", want, text);
}

static void assert_fits(const char *text)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        ck_assert_msg(n <= 80, "a line of %zu columns: %.*s", n, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

START_TEST(actions_view_shows_the_table)
{
    char *t = drawn_as(actions_view, 0, false);
    static const char *const want[] = {
        "Res Arcana",
        "round 2",
        "Actions",
        "First Player: Bob (passed side)",
        "To act: Ann (you)",
        "Colossus, Oracle",
        "6 face down",
        "Sacred Grove [L2] (turned)",
        "Cursed Forge",
        "unclaimed, cost E6 D3",
        "Dragon's Lair",
        "Magic items in the supply: Alchemy, Calm / Elan",
        "> 0 Ann (you)",
        "VP 4",
        "pool E3 L1 C0 D2 G1",
        "hand 3",
        "deck 4",
        "Seer (mage)",
        "Research (item) (turned)",
        "Vault [G2] (turned)",
        "discard pile: Hawk",
        "1 Bob",
        "PASSED",
        "[First Player]",
        "Tree of Life",
        "looked at 3 cards of the monument deck",
        "Your hand (3): Fire Dragon (E6), Elvish Bow (E2 L1), Prism (0)",
        "The known top of your deck: Mermaid, Treant",
        "Decision for Ann (you): pay for placing Fire Dragon, 3 more to pay (paid E2)",
        "`pay ESS`",
        "Ann placed Fire Dragon",
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        assert_has(t, want[i]);
    }
    ck_assert_ptr_null(strchr(t, '\033'));
    assert_fits(t);
    free(t);
}
END_TEST

/* A spectator sees no hand and no "(you)". */
START_TEST(spectator_sees_no_private_part)
{
    char *t = drawn_as(
        "{\"phase\":\"actions\",\"active\":[1],\"seats\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}",
        -1, false);

    ck_assert_ptr_null(strstr(t, "(you)"));
    ck_assert_ptr_null(strstr(t, "Your hand"));
    assert_has(t, "To act: Bob");
    free(t);
}
END_TEST

/* The colour set right before each essence letter of the pool line. */
START_TEST(essences_have_five_colours_and_keep_their_letters)
{
    char *t = drawn_as(actions_view, 0, true);
    const char *pool = strstr(t, "pool ");
    static const char letters[] = "ELCDG";
    char seen[5][16];

    ck_assert_ptr_nonnull(pool);
    for (int i = 0; i < 5; i++) {
        char want[3] = {letters[i], '\0', '\0'};
        const char *at = strstr(pool, want);
        /* The letter comes right after an SGR sequence "\033[...m". */
        while (at && at[-1] != 'm') {
            at = strstr(at + 1, want);
        }
        ck_assert_msg(at != NULL, "%c not drawn after a colour", letters[i]);
        const char *esc = at - 1;
        while (*esc != '\033') {
            esc--;
        }
        snprintf(seen[i], sizeof(seen[i]), "%.*s", (int)(at - esc), esc);
        for (int j = 0; j < i; j++) {
            ck_assert_msg(strcmp(seen[i], seen[j]) != 0, "%c and %c share a colour", letters[i],
                          letters[j]);
        }
    }
    free(t);
    t = drawn_as(actions_view, 0, false);
    ck_assert_ptr_null(strchr(t, '\033'));
    assert_has(t, "E3 L1 C0 D2 G1");
    free(t);
}
END_TEST

START_TEST(setup_and_draft_show_your_secret_parts)
{
    char *t = drawn_as(setup_view, 0, false);

    assert_has(t, "choosing mages");
    assert_has(t, "Your two mages to choose from: Druid, Alchemist");
    assert_has(t, "Your mage (secret until all have chosen): Druid");
    assert_has(t, "mage: chosen");
    assert_has(t, "mage: still choosing");
    assert_has(t, "Decision for each player still choosing: keep one of your two mages");
    assert_has(t, "Temple, Library");
    free(t);
    t = drawn_as(draft_view, 1, false);
    assert_has(t, "drafting artifacts");
    assert_has(t, "Your draft pack: Dragon Egg (G1), Dragon Teeth (E1 D1),");
    assert_has(t, "You kept: Athanor");
    assert_has(t, "kept 2 cards; has picked");
    assert_has(t, "kept 1 card; still picking");
    free(t);
}
END_TEST

START_TEST(duel_shows_the_match_and_the_life_loss)
{
    char *t = drawn_as(duel_view, 1, false);

    assert_has(t, "Duel, game 2 of 3: Ann 0 - 1 Bob; game 1 won by Bob");
    assert_has(t, "Face-up cards to draft: Hawk (L1 C1), Crypt (D2 any3)");
    assert_has(t, "Decision for Bob (you): Ann attacks with Fire Dragon's power 0: lose 2 Life");
    assert_has(t, "`react CARD`");
    assert_has(t, "Your hand (1): Nightingale (L1 C1)");
    free(t);
    t = drawn_as("{\"seats\":[{\"name\":\"Ann\"}],\"decision\":{\"kind\":\"target\",\"seat\":0,"
                 "\"card\":\"mermaid\",\"power\":0,\"why\":\"receive\"}}",
                 0, false);
    assert_has(t, "Decision for Ann (you): choose a card to receive the essence for");
    assert_has(t, "Mermaid's\n    power 0");
    free(t);
    t = drawn_as("{\"phase\":\"actions\",\"seats\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],"
                 "\"decision\":{\"kind\":\"target\",\"seat\":1,\"card\":\"wind_dragon\","
                 "\"power\":0,\"why\":\"discard\",\"attacker\":0,\"amount\":2}}",
                 1, false);
    assert_has(t, "choose a card to discard and ignore the attack of Ann's\n    Wind Dragon");
    free(t);
    t = drawn_as("{\"phase\":\"collect\",\"seats\":[{\"name\":\"Ann\"}],"
                 "\"decision\":{\"kind\":\"gain\",\"seat\":0,\"card\":null,\"left\":2}}",
                 0, false);
    assert_has(t, "gain 2 more essences from Collect");
    free(t);
}
END_TEST

START_TEST(ended_view_and_end_screen)
{
    const struct render_ops *ro = render_find("arcana");
    const char *const names[] = {"Ann", "Bob"};
    char *t = drawn_as(ended_view, 0, false);
    char *text = NULL;
    size_t len = 0;
    FILE *out;
    json_t *res;

    assert_has(t, "Game over");
    assert_has(t, "Bob wins; Ann 11, Bob 11 VP");
    free(t);

    res = json_pack("{s:[i,i], s:[i,i], s:[i], s:b}", "scores", 11, 11, "tiebreak", 4, 8, "winners",
                    1, "round_limit", 1);
    out = open_memstream(&text, &len);
    ro->end(out, res, names, 2);
    fclose(out);
    assert_has(text, "Tied on VP: the pool decides (each Gold counts 2): Ann 4, Bob 8");
    assert_has(text, "round limit");
    free(text);
    json_decref(res);

    res = json_loads("{\"scores\":[1,2],\"winners\":[1],\"round_limit\":false,\"games\":["
                     "{\"winners\":[1],\"scores\":[7,12]},{\"winners\":[0,1],\"scores\":[10,10]},"
                     "{\"winners\":[1],\"scores\":[9,10]}]}",
                     0, NULL);
    out = open_memstream(&text, &len);
    ro->end(out, res, names, 2);
    fclose(out);
    assert_has(text, "games won in the duel");
    assert_fits(text);
    assert_has(text, "game 1: Bob won;  VP 7, 12");
    assert_has(text, "game 2: Ann and Bob shared it");
    ck_assert_ptr_null(strstr(text, "Tied on VP"));
    free(text);
    json_decref(res);
}
END_TEST

/* Members missing, null or of another type: drawn without a crash (the
 * sanitizers watch). */
START_TEST(missing_members_never_crash)
{
    static const char *const views[] = {
        "{}",
        "{\"board\":null,\"seats\":null,\"you\":null,\"decision\":null,\"match\":null}",
        "{\"board\":{\"pops\":[{}],\"display\":[1,null]},\"seats\":[{},null,3],"
        "\"decision\":{},\"you\":{\"hand\":[null]},\"log\":[1,null]}",
        "{\"board\":{\"first\":7},\"seats\":[{\"play\":[{\"card\":5}],\"pool\":[]}],"
        "\"decision\":{\"kind\":\"respond\",\"attacker\":9,\"seat\":-1},"
        "\"match\":{\"results\":[{}],\"score\":null},\"result\":{\"winners\":[5]}}",
        "{\"phase\":\"setup_mage\",\"seats\":[{\"name\":\"\"}],\"decision\":{\"kind\":\"x\"}}",
    };
    const char *kinds[] = {"pay",    "same",   "same_more", "gain",       "gain_discard",
                           "target", "rival",  "deck",      "order",      "respond",
                           "lose",   "statue", "item",      "take",       "forge",
                           "mage",   "draft",  "first",     "match_draft"};

    for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
        free(drawn_as(views[i], 0, true));
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        char v[128];
        snprintf(v, sizeof(v), "{\"decision\":{\"kind\":\"%s\"}}", kinds[i]);
        char *t = drawn_as(v, 0, false);
        assert_has(t, "Decision for ");
        free(t);
    }
}
END_TEST

/* Each command and the action object of the document it must give. */
static const struct {
    const char *typed, *want;
} commands[] = {
    {"place fire", "{\"type\":\"place\",\"card\":\"fire_dragon\"}"},
    {"place Fire Dragon", "{\"type\":\"place\",\"card\":\"fire_dragon\"}"},
    {"place elvish_bow", "{\"type\":\"place\",\"card\":\"elvish_bow\"}"},
    {"claim monument colossus", "{\"type\":\"monument\",\"card\":\"colossus\"}"},
    {"claim monument deck", "{\"type\":\"monument\",\"card\":\"deck\"}"},
    {"claim deck", "{\"type\":\"monument\",\"card\":\"deck\"}"},
    {"monument oracle", "{\"type\":\"monument\",\"card\":\"oracle\"}"},
    {"claim orac", "{\"type\":\"monument\",\"card\":\"oracle\"}"},
    {"claim pop cursed", "{\"type\":\"pop\",\"card\":\"cursed_forge\"}"},
    {"claim dragon's lair", "{\"type\":\"pop\",\"card\":\"dragons_lair\"}"},
    {"pop coral", "{\"type\":\"pop\",\"card\":\"coral_castle\"}"},
    {"discard prism", "{\"type\":\"discard\",\"card\":\"prism\"}"},
    {"use vault", "{\"type\":\"power\",\"card\":\"vault\",\"power\":0}"},
    {"use sacred 1", "{\"type\":\"power\",\"card\":\"sacred_grove\",\"power\":1}"},
    {"use seer", "{\"type\":\"power\",\"card\":\"seer\",\"power\":0}"},
    {"pass", "{\"type\":\"pass\"}"},
    {"pay e", "{\"type\":\"pay\",\"essence\":\"elan\"}"},
    {"pay gold", "{\"type\":\"pay\",\"essence\":\"gold\"}"},
    {"PAY L", "{\"type\":\"pay\",\"essence\":\"life\"}"},
    {"same c", "{\"type\":\"same\",\"essence\":\"calm\"}"},
    {"same none", "{\"type\":\"same\",\"essence\":\"none\"}"},
    {"more", "{\"type\":\"more\"}"},
    {"done", "{\"type\":\"done\"}"},
    {"gain death", "{\"type\":\"gain\",\"essence\":\"death\"}"},
    {"target vault", "{\"type\":\"target\",\"card\":\"vault\"}"},
    {"target none", "{\"type\":\"target\",\"card\":\"none\"}"},
    {"rival 1", "{\"type\":\"rival\",\"seat\":1}"},
    {"rival bob", "{\"type\":\"rival\",\"seat\":1}"},
    {"deck own", "{\"type\":\"deck\",\"deck\":\"own\"}"},
    {"deck monument", "{\"type\":\"deck\",\"deck\":\"monument\"}"},
    {"order mermaid", "{\"type\":\"order\",\"card\":\"mermaid\"}"},
    {"lose", "{\"type\":\"respond\",\"with\":\"lose\"}"},
    {"ignore", "{\"type\":\"respond\",\"with\":\"ignore\"}"},
    {"react tree", "{\"type\":\"respond\",\"with\":\"react\",\"card\":\"tree_of_life\","
                   "\"power\":1}"},
    {"react healer 0", "{\"type\":\"respond\",\"with\":\"react\",\"card\":\"healer\","
                       "\"power\":0}"},
    {"lose g", "{\"type\":\"lose\",\"essence\":\"gold\"}"},
    {"statue yes", "{\"type\":\"statue\",\"use\":true}"},
    {"statue no", "{\"type\":\"statue\",\"use\":false}"},
    {"item divination", "{\"type\":\"item\",\"card\":\"divination\"}"},
    {"item calm", "{\"type\":\"item\",\"card\":\"calm_elan\"}"},
    {"take", "{\"type\":\"take\"}"},
    {"take vault", "{\"type\":\"take\"}"},
    {"keep", "{\"type\":\"leave\"}"},
    {"leave vault", "{\"type\":\"leave\"}"},
    {"forge pay", "{\"type\":\"forge\",\"with\":\"pay\"}"},
    {"forge turn", "{\"type\":\"forge\",\"with\":\"turn\"}"},
    {"mage druid", "{\"type\":\"mage\",\"card\":\"druid\"}"},
    {"draft hawk", "{\"type\":\"draft\",\"card\":\"hawk\"}"},
    {"pick crypt", "{\"type\":\"draft\",\"card\":\"crypt\"}"},
    {"first 0", "{\"type\":\"first\",\"seat\":0}"},
    {"first me", "{\"type\":\"first\",\"seat\":0}"},
    {"first Bob", "{\"type\":\"first\",\"seat\":1}"},
};

START_TEST(every_command_gives_the_documented_action)
{
    const struct render_ops *ro = render_find("arcana");
    json_t *view = json_loads(actions_view, 0, NULL);

    ck_assert_ptr_nonnull(view);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        char err[256] = "";
        json_t *a = NULL;
        json_t *want = json_loads(commands[i].want, 0, NULL);
        ck_assert_ptr_nonnull(want);
        ck_assert_msg(ro->parse(commands[i].typed, view, 0, &a, err, sizeof(err)) == 0,
                      "`%s` refused: %s", commands[i].typed, err);
        char *got = json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT);
        ck_assert_msg(json_equal(a, want), "`%s` gave %s, not %s", commands[i].typed, got,
                      commands[i].want);
        free(got);
        json_decref(a);
        json_decref(want);
    }
    json_decref(view);
}
END_TEST

/* Without a view, cards are found among all cards of the game. */
START_TEST(commands_work_without_a_view)
{
    const struct render_ops *ro = render_find("arcana");
    char err[256] = "";
    json_t *a = NULL;

    ck_assert_int_eq(ro->parse("place sea", NULL, 0, &a, err, sizeof(err)), 0);
    ck_assert_str_eq(json_string_value(json_object_get(a, "card")), "sea_serpent");
    json_decref(a);
    ck_assert_int_eq(ro->parse("claim solomon", NULL, 0, &a, err, sizeof(err)), 0);
    ck_assert_str_eq(json_string_value(json_object_get(a, "type")), "monument");
    ck_assert_str_eq(json_string_value(json_object_get(a, "card")), "solomons_mine");
    json_decref(a);
}
END_TEST

START_TEST(bad_commands_get_errors)
{
    static const struct {
        const char *typed, *says;
    } bad[] = {
        {"fly", "unknown command"},
        {"pay", "essence"},
        {"pay x", "essence"},
        {"gain gold gold", "essence"},
        {"same", "or none"},
        {"place", "needs a card"},
        {"place zzz", "no artifact"},
        {"place colossus", "no artifact"},
        {"target d", "could be"},
        {"use vault 1 2", "no card"},
        {"use nightingale", "no action power"},
        {"use athanor", "say which"},
        {"react vault", "no React"},
        {"rival", "SEAT"},
        {"rival 7", "SEAT"},
        {"first nobody", "SEAT"},
        {"claim", "claim CARD"},
        {"claim hawk", "neither a monument"},
        {"deck mine please", "not that way"},
        {"statue maybe", "not that way"},
        {"forge", "not that way"},
        {"pass now", "not that way"},
    };
    const struct render_ops *ro = render_find("arcana");
    json_t *view = json_loads(actions_view, 0, NULL);

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char err[256] = "";
        json_t *a = NULL;
        ck_assert_msg(ro->parse(bad[i].typed, view, 0, &a, err, sizeof(err)) == -1,
                      "`%s` was accepted", bad[i].typed);
        ck_assert_ptr_null(a);
        ck_assert_msg(strstr(err, bad[i].says), "`%s`: \"%s\" does not say \"%s\"", bad[i].typed,
                      err, bad[i].says);
    }
    json_decref(view);
}
END_TEST

static char *card_said(const char *name, int *ret)
{
    const struct render_ops *ro = render_find("arcana");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    *ret = ro->card(out, name);
    fclose(out);
    return text;
}

START_TEST(card_finds_by_prefix_and_says_costs_and_powers)
{
    int rc;
    char *t = card_said("fire d", &rc);

    ck_assert_int_eq(rc, 0);
    assert_has(t, "Fire Dragon");
    assert_has(t, "Cost: 6 Elan");
    assert_has(t, "1 VP");
    assert_has(t, "Power 0: turn this -> each rival loses 2 Life unless they pay 1 Calm");
    free(t);
    t = card_said("Sorcerer's Bestiary", &rc);
    ck_assert_int_eq(rc, 0);
    assert_has(t, "+2 VP per");
    assert_has(t, "Power 1: turn this, pay any 4 ->");
    free(t);
    t = card_said("vault", &rc);
    ck_assert_int_eq(rc, 0);
    assert_has(t, "Collect: if it holds Gold and you leave its essences on it");
    free(t);
    t = card_said("obel", &rc);
    assert_has(t, "When claimed: gain any 6 (no Gold)");
    free(t);
    t = card_said("artificer", &rc);
    assert_has(t, "Always: your artifacts cost 1 less to place (not Gold)");
    free(t);
    t = card_said("healer", &rc);
    assert_has(t, "Collect: gain 1 Calm or Life");
    assert_has(t, "react when a rival's effect would make you lose Life");
    free(t);
    t = card_said("dragon", &rc); /* Dragon Bridle, Egg, Teeth, Dragon's Lair */
    ck_assert_int_eq(rc, -1);
    free(t);
    t = card_said("unicorn", &rc);
    ck_assert_int_eq(rc, -1);
    free(t);
}
END_TEST

START_TEST(every_action_type_has_words)
{
    static const char *const actions[] = {
        "{\"type\":\"place\",\"card\":\"fire_dragon\"}",
        "{\"type\":\"monument\",\"card\":\"colossus\"}",
        "{\"type\":\"monument\",\"card\":\"deck\"}",
        "{\"type\":\"pop\",\"card\":\"sacred_grove\"}",
        "{\"type\":\"discard\",\"card\":\"hawk\"}",
        "{\"type\":\"power\",\"card\":\"vault\",\"power\":0}",
        "{\"type\":\"pass\"}",
        "{\"type\":\"pay\",\"essence\":\"elan\"}",
        "{\"type\":\"same\",\"essence\":\"calm\"}",
        "{\"type\":\"same\",\"essence\":\"none\"}",
        "{\"type\":\"more\"}",
        "{\"type\":\"done\"}",
        "{\"type\":\"gain\",\"essence\":\"gold\"}",
        "{\"type\":\"target\",\"card\":\"vault\"}",
        "{\"type\":\"target\",\"card\":\"none\"}",
        "{\"type\":\"rival\",\"seat\":1}",
        "{\"type\":\"deck\",\"deck\":\"own\"}",
        "{\"type\":\"deck\",\"deck\":\"monument\"}",
        "{\"type\":\"order\",\"card\":\"hawk\"}",
        "{\"type\":\"respond\",\"with\":\"lose\"}",
        "{\"type\":\"respond\",\"with\":\"ignore\"}",
        "{\"type\":\"respond\",\"with\":\"react\",\"card\":\"healer\",\"power\":0}",
        "{\"type\":\"lose\",\"essence\":\"death\"}",
        "{\"type\":\"statue\",\"use\":true}",
        "{\"type\":\"statue\",\"use\":false}",
        "{\"type\":\"item\",\"card\":\"research\"}",
        "{\"type\":\"take\"}",
        "{\"type\":\"leave\"}",
        "{\"type\":\"forge\",\"with\":\"pay\"}",
        "{\"type\":\"forge\",\"with\":\"turn\"}",
        "{\"type\":\"mage\",\"card\":\"seer\"}",
        "{\"type\":\"draft\",\"card\":\"hawk\"}",
        "{\"type\":\"first\",\"seat\":0}",
    };
    const struct render_ops *ro = render_find("arcana");
    char seen[sizeof(actions) / sizeof(actions[0])][128];

    for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
        json_t *a = json_loads(actions[i], 0, NULL);
        ck_assert_ptr_nonnull(a);
        ck_assert_msg(ro->phrase(a, seen[i], sizeof(seen[i])) == 0, "no words for %s", actions[i]);
        ck_assert_msg(strlen(seen[i]) > 3 && !strchr(seen[i], '_'), "%s: \"%s\"", actions[i],
                      seen[i]);
        for (size_t j = 0; j < i; j++) {
            ck_assert_msg(strcmp(seen[i], seen[j]) != 0, "%s and %s both read \"%s\"", actions[i],
                          actions[j], seen[i]);
        }
        json_decref(a);
    }
    json_t *odd = json_pack("{s:s}", "type", "fly");
    char buf[64];
    ck_assert_int_eq(ro->phrase(odd, buf, sizeof(buf)), -1);
    json_decref(odd);
}
END_TEST

/* Every command the help names is a word the parser knows (not "unknown
 * command"). */
START_TEST(help_names_every_command)
{
    const struct render_ops *ro = render_find("arcana");
    static const char *const words[] = {
        "place", "claim",  "monument", "pop",    "discard", "use",   "pass", "pay",
        "same",  "more",   "done",     "gain",   "target",  "rival", "deck", "order",
        "lose",  "ignore", "react",    "statue", "item",    "take",  "keep", "leave",
        "forge", "mage",   "draft",    "pick",   "first",   "card"};

    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        char want[24];
        snprintf(want, sizeof(want), "\n%s ", words[i]);
        char alt[24];
        snprintf(alt, sizeof(alt), "| %s ", words[i]);
        ck_assert_msg(strstr(ro->help, want) || strstr(ro->help, alt) ||
                          strncmp(ro->help, want + 1, strlen(want) - 1) == 0,
                      "help does not start a line with %s", words[i]);
        if (strcmp(words[i], "card") != 0) {
            char err[256] = "";
            json_t *a = NULL;
            if (ro->parse(words[i], NULL, 0, &a, err, sizeof(err)) != 0) {
                ck_assert_msg(!strstr(err, "unknown command"), "%s: %s", words[i], err);
            }
            json_decref(a);
        }
    }
}
END_TEST

/* A command a player would type for legal action `a`: by ids, or by
 * names and short forms when `by_name`. */
static void typed_for(const json_t *a, bool by_name, char *buf, size_t len)
{
    const char *t = json_string_value(json_object_get(a, "type"));
    const char *card = json_string_value(json_object_get(a, "card"));
    const char *ess = json_string_value(json_object_get(a, "essence"));
    const char *with = json_string_value(json_object_get(a, "with"));
    char named[128] = "";
    long power = (long)json_integer_value(json_object_get(a, "power"));
    long seat = (long)json_integer_value(json_object_get(a, "seat"));

    if (card) {
        /* `card NAME` prints "Name (id): ..."; its first words are the name. */
        char *text = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&text, &n);
        int found = render_find("arcana")->card(m, card);
        fclose(m);
        snprintf(named, sizeof(named), "%.*s", (int)strcspn(text, "("), text);
        named[strlen(named) ? strlen(named) - 1 : 0] = '\0';
        free(text);
        if (!by_name || found != 0 || strcmp(card, "deck") == 0) {
            snprintf(named, sizeof(named), "%s", card);
        }
    }
    if (ess) {
        snprintf(buf, len, by_name && strcmp(ess, "none") ? "%s %.1s" : "%s %s", t, ess);
    } else if (strcmp(t, "monument") == 0 || strcmp(t, "pop") == 0) {
        snprintf(buf, len, by_name ? "claim %s" : "claim %s %s", by_name ? named : t, named);
    } else if (strcmp(t, "power") == 0) {
        snprintf(buf, len, "use %s %ld", named, power);
    } else if (strcmp(t, "respond") == 0 && strcmp(with, "react") == 0) {
        snprintf(buf, len, "react %s %ld", named, power);
    } else if (strcmp(t, "respond") == 0 || strcmp(t, "forge") == 0) {
        snprintf(buf, len, t[0] == 'f' ? "forge %s" : "%s", with);
    } else if (strcmp(t, "rival") == 0 || strcmp(t, "first") == 0) {
        snprintf(buf, len, "%s %ld", t, seat);
    } else if (strcmp(t, "deck") == 0) {
        snprintf(buf, len, "deck %s", json_string_value(json_object_get(a, "deck")));
    } else if (strcmp(t, "statue") == 0) {
        snprintf(buf, len, "statue %s", json_is_true(json_object_get(a, "use")) ? "yes" : "no");
    } else if (strcmp(t, "leave") == 0) {
        snprintf(buf, len, "%s", by_name ? "keep" : "leave it");
    } else if (card) {
        snprintf(buf, len, "%s %s", t, named);
    } else {
        snprintf(buf, len, "%s", t);
    }
}

/* One random game: each step drawn for the seat to act, and each entry of
 * its `legal` list typed back and worded. */
static void play_one(const struct game_ops *g, const char *options, int nseats, unsigned seed)
{
    const struct render_ops *ro = render_find("arcana");
    struct game_setup setup = {.nseats = nseats};
    struct game_error gerr;
    json_t *opts = json_loads(options, 0, NULL);
    void *state = calloc(1, g->state_size);

    for (int i = 0; i < nseats; i++) {
        snprintf(setup.names[i], GAME_NAME_MAX, "Player %d", i + 1);
    }
    setup.seed[0] = (uint8_t)seed;
    ck_assert_int_eq(game_start(g, state, opts, &setup, &gerr), GAME_OK);
    srand(seed);
    for (int step = 0; step < 800 && g->active(state); step++) {
        unsigned act = g->active(state);
        int seat = 0;
        while (!(act & (1u << seat))) {
            seat++;
        }
        json_t *view = game_view(g, state, seat);
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        struct render_style st = {false};
        ro->draw(out, view, seat, &st);
        fclose(out);
        assert_fits(text);
        free(text);
        json_t *legal = g->legal(state, seat);
        size_t i;
        json_t *a;
        json_array_foreach(legal, i, a) {
            char words[256];
            ck_assert_int_eq(ro->phrase(a, words, sizeof(words)), 0);
            for (int by_name = 0; by_name < 2; by_name++) {
                char line[256];
                char err[256] = "";
                json_t *got = NULL;
                typed_for(a, by_name, line, sizeof(line));
                ck_assert_msg(ro->parse(line, view, seat, &got, err, sizeof(err)) == 0 &&
                                  json_equal(got, a),
                              "`%s` does not give the legal action (%s)", line, err);
                json_decref(got);
            }
        }
        size_t n = json_array_size(legal);
        ck_assert_uint_gt(n, 0);
        json_t *pick = json_array_get(legal, (size_t)rand() % n);
        ck_assert_int_eq(game_apply(g, state, seat, pick, &gerr), GAME_OK);
        json_decref(legal);
        json_decref(view);
    }
    /* A finished game's end screen. */
    json_t *view = game_view(g, state, 0);
    const json_t *result = json_object_get(view, "result");
    if (json_is_object(result)) {
        const char *const names[] = {"Player 1", "Player 2", "Player 3", "Player 4"};
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        ro->end(out, result, names, nseats);
        fclose(out);
        assert_fits(text);
        free(text);
    }
    json_decref(view);
    free(state);
    json_decref(opts);
}

START_TEST(random_games_are_drawn_and_every_legal_action_typed)
{
    const struct game_ops *g = game_find("arcana");

    if (!g) {
        printf("arcana is not in the game registry: no random games\n");
        return;
    }
    play_one(g, "{}", 3, 1);
    play_one(g, "{\"setup\":\"first_game\"}", 4, 2);
    play_one(g, "{\"setup\":\"draft\"}", 2, 3);
    play_one(g, "{\"duel\":true}", 2, 4);
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"actions_view", actions_view_shows_the_table},
        {"spectator", spectator_sees_no_private_part},
        {"colours", essences_have_five_colours_and_keep_their_letters},
        {"setup_draft", setup_and_draft_show_your_secret_parts},
        {"duel", duel_shows_the_match_and_the_life_loss},
        {"ended", ended_view_and_end_screen},
        {"missing_members", missing_members_never_crash},
        {"commands", every_command_gives_the_documented_action},
        {"no_view", commands_work_without_a_view},
        {"bad_commands", bad_commands_get_errors},
        {"card", card_finds_by_prefix_and_says_costs_and_powers},
        {"phrase", every_action_type_has_words},
        {"help", help_names_every_command},
        {"random_games", random_games_are_drawn_and_every_legal_action_typed},
    };

    /* The random games take a few seconds under the sanitizers. */
    return ck_run("arcana", cases, sizeof(cases) / sizeof(cases[0]), NULL, NULL, 50);
}
