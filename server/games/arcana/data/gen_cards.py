#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# gen_cards.py - turns arcana-cards.json into arcana_cards.c, the static card
# table of the Res Arcana rules core. It owns the mapping from the JSON effect
# vocabulary (docs/rules/arcana.md 12) to the C fields and never invents data
# the JSON does not hold.
# Usage: python3 gen_cards.py arcana-cards.json > ../arcana_cards.c
import json
import sys

ESS = ["elan", "life", "calm", "death", "gold"]
KINDS = {"artifact": "ARC_K_ARTIFACT", "mage": "ARC_K_MAGE", "magic_item": "ARC_K_ITEM",
         "monument": "ARC_K_MONUMENT", "place_of_power": "ARC_K_POP"}
TAGS = {"dragon": "ARC_TAG_DRAGON", "creature": "ARC_TAG_CREATURE"}
OPS = {
    "turn_self": "TURN_SELF", "pay": "PAY", "pay_any": "PAY_ANY", "pay_choice": "PAY_CHOICE",
    "pay_same_type": "PAY_SAME", "remove_from_self": "REMOVE_SELF", "turn_own": "TURN_OWN",
    "destroy_self": "DESTROY_SELF", "destroy_own_artifact": "DESTROY_OWN",
    "discard_from_hand": "DISCARD_HAND", "gain": "GAIN", "gain_any": "GAIN_ANY",
    "gain_choice": "GAIN_CHOICE", "place_on_self": "PLACE_SELF",
    "place_any_on_self": "PLACE_ANY_SELF", "place_spent_on_self": "PLACE_SPENT_SELF",
    "place_spent_on_own_component": "PLACE_SPENT_OWN", "rivals_gain": "RIVALS_GAIN",
    "rivals_lose_life": "RIVALS_LOSE", "gain_equal_to_rival_pool": "GAIN_RIVAL",
    "draw": "DRAW", "draw_then_discard": "DRAW_DISCARD", "look_reorder": "LOOK",
    "straighten_own": "STRAIGHTEN_OWN", "straighten_self": "STRAIGHTEN_SELF",
    "gain_bound": "GAIN_BOUND", "gain_from_printed_cost": "GAIN_COST",
    "place_artifact": "PLACE_ARTIFACT", "check_victory": "CHECK_VICTORY",
    "ignore_life_loss": "IGNORE", "temp_vp": "TEMP_VP", "if_left_on_self": "IF_LEFT",
    "add_two_per_type_on_self": "WIND", "upkeep_or_turn": "UPKEEP",
}
ZONES = {"hand": "ARC_Z_FROM_HAND", "own_discard": "ARC_Z_FROM_OWN_DISCARD",
         "any_discard": "ARC_Z_FROM_ANY_DISCARD"}
TRIGGERS = {"life_loss": "ARC_TR_LIFE", "dragon_power": "ARC_TR_DRAGON",
            "victory_check": "ARC_TR_VICTORY"}
WHEN = {"straight": "ARC_W_STRAIGHT", "turned": "ARC_W_TURNED", "either": "ARC_W_EITHER"}


def mask(types):
    return "0x%02x" % sum(1 << ESS.index(t) for t in types)


def allowed(exclude):
    return mask([t for t in ESS if t not in (exclude or [])])


def ess(m):
    m = m or {}
    for k in m:
        assert k in ESS, k
    return "{%s}" % ", ".join(str(m.get(t, 0)) for t in ESS)


def op(o):
    name = o["op"]
    f = {"op": "ARC_OP_" + OPS[name], "ess": ess(None), "count": "0", "mask": "0",
         "tag": "0", "flag": "0", "arg": "0", "arg2": "0"}
    if name in ("pay", "gain", "place_on_self", "rivals_gain", "remove_from_self"):
        f["ess"] = ess(o["essences"])
    elif name in ("pay_any", "gain_any", "place_any_on_self"):
        f["count"] = str(o["count"])
        f["mask"] = allowed(o.get("exclude"))
    elif name in ("pay_choice", "gain_choice"):
        assert o.get("count", 1) == 1
        f["count"] = "1"
        f["mask"] = mask(o["options"])
    elif name == "pay_same_type":
        assert o.get("min", 0) == 0
        f["mask"] = allowed(o.get("exclude"))
    elif name == "turn_own":
        f["tag"] = TAGS[o["filter"]["tag"]]
    elif name == "destroy_own_artifact":
        flt = o.get("filter", {})
        tags = flt.get("tags_any") or []
        f["tag"] = " | ".join(TAGS[t] for t in tags) or "0"
        f["flag"] = "1" if flt.get("exclude_self") else "0"
    elif name == "discard_from_hand":
        assert o["count"] == 1
        f["count"] = "1"
    elif name == "rivals_lose_life":
        f["count"] = str(o["amount"])
        ic = o.get("ignore_cost")
        if not ic:
            f["arg"] = "ARC_IG_NONE"
        else:
            assert len(ic) == 1
            c = ic[0]
            if c["op"] == "pay":
                f["arg"] = "ARC_IG_PAY"
                f["ess"] = ess(c["essences"])
            elif c["op"] == "discard_from_hand":
                f["arg"] = "ARC_IG_DISCARD"
            elif c["op"] == "destroy_own_artifact":
                f["arg"] = "ARC_IG_DESTROY"
            else:
                raise ValueError(c)
    elif name == "gain_equal_to_rival_pool":
        f["arg"] = str(ESS.index(o["gain"]))
        f["arg2"] = str(ESS.index(o["count"]))
    elif name == "draw":
        f["count"] = str(o["count"])
    elif name == "draw_then_discard":
        assert o["draw"] == o["discard"]
        f["count"] = str(o["draw"])
    elif name == "look_reorder":
        f["count"] = str(o["count"])
        assert sorted(o["decks"]) == ["monument_deck", "own_artifact_deck"]
    elif name == "straighten_own":
        assert o.get("optional", True)
        t = (o.get("filter") or {}).get("tag")
        f["tag"] = TAGS[t] if t else "0"
    elif name == "gain_bound":
        f["flag"] = "1" if o["as"] == "one_type" else "0"
        f["mask"] = allowed(o.get("exclude"))
        f["arg"] = "1" if o.get("must_differ") else "0"
    elif name == "gain_from_printed_cost":
        f["count"] = str(o["plus"])
        f["flag"] = "1" if o["as"] == "gold" else "0"
        f["mask"] = allowed(o.get("exclude"))
    elif name == "place_artifact":
        assert o.get("optional", True)
        f["arg"] = ZONES[o["from"]]
        t = (o.get("filter") or {}).get("tag")
        f["tag"] = TAGS[t] if t else "0"
        cm = o.get("cost_modifier")
        if cm and cm.get("set_to_zero"):
            f["flag"] = "ARC_PF_ZERO"
        elif cm:
            f["count"] = str(cm["reduce"])
            f["flag"] = "ARC_PF_NOGOLD" if "gold" in cm.get("exclude", []) else "0"
    elif name == "temp_vp":
        f["count"] = str(o["amount"])
    elif name == "if_left_on_self":
        f["arg"] = "ARC_NESS" if o["essence"] == "any" else str(ESS.index(o["essence"]))
        assert len(o["then"]) == 1
        t = o["then"][0]
        f["arg2"] = "ARC_OP_" + OPS[t["op"]]
        if t["op"] == "gain_any":
            f["count"] = str(t["count"])
            f["mask"] = allowed(t.get("exclude"))
    elif name == "upkeep_or_turn":
        f["ess"] = ess(o["pay"])
    return "{%s, %s, %s, %s, %s, %s, %s, %s}" % (
        f["op"], f["ess"], f["count"], f["mask"], f["tag"], f["flag"], f["arg"], f["arg2"])


def ops(lst, n):
    assert len(lst) <= n
    return "{%s}" % ", ".join(op(o) for o in lst) if lst else "{{0}}"


def power(p):
    kind = "ARC_PW_ACTION" if p["kind"] == "action" else "ARC_PW_REACT"
    trig = TRIGGERS[p["trigger"]] if p["kind"] == "react" else "0"
    return "{%s, %s, %s, %d, %d, %s, %s}" % (
        kind, trig, WHEN[p.get("usable_when", "straight")], len(p["cost"]), len(p["effect"]),
        ops(p["cost"], 3), ops(p["effect"], 2))


def main():
    cards = json.load(open(sys.argv[1]))
    ids = [c["id"] for c in cards]
    assert len(ids) == 78 and len(set(ids)) == 78
    order = ["artifact"] * 40 + ["mage"] * 10 + ["magic_item"] * 8 + ["monument"] * 10 + \
        ["place_of_power"] * 10
    assert [c["kind"] for c in cards] == order
    out = []
    w = out.append
    w("/* SPDX-License-Identifier: MIT */")
    w("/*")
    w(" * arcana_cards.c - the 78 Res Arcana cards as a static table, generated by")
    w(" * data/gen_cards.py from data/arcana-cards.json. It owns the card data and")
    w(" * must never be edited by hand or read files at run time.")
    w(" */")
    w('#include "arcana.h"')
    w("")
    w("/* clang-format off */")
    w("const struct arc_card arc_cards[ARC_NCARDS] = {")
    for c in cards:
        cost = c["cost"]
        fixed = {k: v for k, v in (cost or {}).items() if k != "any"}
        anyc = (cost or {}).get("any", 0)
        tags = " | ".join(TAGS[t] for t in c["tags"]) or "0"
        vpf = []
        for v in c["vp_per"]:
            if v["per"] == "essence_on_self":
                vpf.append("{ARC_VP_ESSENCE, %d, %d}" % (ESS.index(v["essence"]), v["vp"]))
            else:
                vpf.append("{ARC_VP_TAG, %s, %d}" % (TAGS[v["tag"]], v["vp"]))
        assert len(vpf) <= 2
        disc = "{0, 0, 0}"
        assert len(c["passives"]) <= 1
        for p in c["passives"]:
            assert p["op"] == "placement_discount"
            disc = "{%s, %d, %d}" % ("ARC_DISC_ARTIFACT" if p["applies_to"] == "artifact"
                                     else "ARC_DISC_DRAGON", p["amount"],
                                     1 if "gold" in p.get("exclude", []) else 0)
        assert [p["index"] for p in c["powers"]] == list(range(len(c["powers"])))
        pop = c.get("place_of_power")
        if pop:
            popf = "%d, %d, %d, ARC_ID_%s" % (pop["card"], 0 if pop["side"] == "A" else 1,
                                              1 if pop["first_game_side"] else 0,
                                              pop["other_side_id"].upper())
        else:
            popf = "0, 0, 0, 0"
        w("    [ARC_ID_%s] = {" % c["id"].upper())
        w('        "%s", "%s", %s, %s, %s, %d, %d, %d,' % (
            c["id"], c["name"].replace('"', '\\"'), KINDS[c["kind"]], tags, ess(fixed), anyc,
            c["vp"], c["first_game_preset"] or 0))
        w("        %d, {%s}," % (len(vpf), ", ".join(vpf) if vpf else "{0}"))
        w("        %d, %s, %s," % (len(c["collect"]), ops(c["collect"], 1), disc))
        w("        %d, %s," % (len(c["on_claim"]), ops(c["on_claim"], 1)))
        w("        %d, {%s}," % (len(c["powers"]), ", ".join(power(p) for p in c["powers"])
                               if c["powers"] else "{0}"))
        w("        %s," % popf)
        w("    },")
    w("};")
    w("/* clang-format on */")
    print("\n".join(out))


def enum_header(cards):
    pass


if __name__ == "__main__":
    main()
