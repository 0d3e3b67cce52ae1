#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes arcana_texts.c, the Res Arcana card texts the terminal client shows
for `card NAME` (and the names and power indexes its renderer uses), from
the game's card data: the vocabulary of res-arcana.md section 12 turned into
words. Usage: gen_arcana_texts.py arcana-cards.json"""
import json
import sys
import textwrap

ORDER = ["elan", "life", "calm", "death", "gold"]
WORD = {"elan": "Elan", "life": "Life", "calm": "Calm", "death": "Death", "gold": "Gold"}
TAG = {"dragon": ("Dragon", "Dragons"), "creature": ("Creature", "Creatures")}
KIND = {"mage": "mage", "artifact": "artifact", "magic_item": "magic item",
        "monument": "monument", "place_of_power": "Place of Power"}
TRIGGER = {"life_loss": "react when a rival's effect would make you lose Life",
           "dragon_power": "react when a Dragon's power would make you lose Life",
           "victory_check": "react at a victory check"}


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def essences(m):
    """{"elan": 2, "any": 1} -> "2 Elan + any 1"."""
    parts = ["%d %s" % (m[k], WORD[k]) for k in ORDER if m.get(k)]
    if m.get("any"):
        parts.append("any %d" % m["any"])
    return " + ".join(parts) if parts else "nothing"


def types(opts, joiner="or"):
    words = [WORD[o] for o in opts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " %s " % joiner + words[-1]


def excluding(exclude):
    return " (no %s)" % types(exclude, "and no").replace(", ", ", no ") if exclude else ""


def any_n(count, exclude):
    return "any %d%s" % (count, excluding(exclude))


def tag_word(tag, plural=False):
    return TAG[tag][1 if plural else 0]


def cost_part(p, rival=False, kind="artifact"):
    op = p["op"]
    you, your = ("they", "their") if rival else ("you", "your")
    if op == "turn_self":
        return "turn this"
    if op == "pay":
        return "pay " + essences(p["essences"])
    if op == "pay_any":
        return "pay " + any_n(p["count"], p.get("exclude", []))
    if op == "pay_choice":
        return "pay %d %s" % (p.get("count", 1), types(p["options"]))
    if op == "pay_same_type":
        ex = p.get("exclude", [])
        return ("pay X essences all of one type (%sX may be %d)"
                % ("no " + types(ex, "and no") + "; " if ex else "", p.get("min", 0)))
    if op == "remove_from_self":
        return "remove %s from this" % essences(p["essences"])
    if op == "turn_own":
        return "turn another of your straight %s" % tag_word(p["filter"]["tag"], True)
    if op == "destroy_self":
        return "destroy this"
    if op == "destroy_own_artifact":
        f = p.get("filter", {})
        if f.get("tags_any"):
            what = " or ".join(tag_word(t, True) for t in f["tags_any"])
        else:
            what = "artifacts"
        if rival:
            return "destroy one of %s %s in play" % (your, what)
        if f.get("exclude_self"):
            return "destroy another of %s %s" % (your, what)
        return "destroy one of %s %s%s" % (your, what,
                                           " (this one too)" if kind == "artifact" else "")
    if op == "discard_from_hand":
        n = p.get("count", 1)
        return "discard %d card%s from %s hand" % (n, "" if n == 1 else "s", your)
    raise SystemExit("gen_arcana_texts: unknown cost op %s" % op)


def bound(name):
    return {"destroyed": "the destroyed artifact", "discarded": "the discarded card"}.get(
        name, "that card")


def effect(e):
    op = e["op"]
    if op == "gain":
        return "gain " + essences(e["essences"])
    if op == "gain_any":
        return "gain " + any_n(e["count"], e.get("exclude", []))
    if op == "gain_choice":
        return "gain %d %s" % (e.get("count", 1), types(e["options"]))
    if op == "place_on_self":
        return "put %s on this" % essences(e["essences"])
    if op == "place_any_on_self":
        return "put %s on this" % any_n(e["count"], e.get("exclude", []))
    if op == "place_spent_on_self":
        return "put what was paid on this"
    if op == "place_spent_on_own_component":
        return "put the paid essence on one of your components"
    if op == "rivals_gain":
        return "each rival gains " + essences(e["essences"])
    if op == "rivals_lose_life":
        s = "each rival loses %d Life" % e["amount"]
        if e.get("ignore_cost"):
            s += " unless they " + " and ".join(cost_part(p, True) for p in e["ignore_cost"])
        return s
    if op == "gain_equal_to_rival_pool":
        return ("choose a rival: gain as many %s as they have %s in their pool"
                % (WORD[e["gain"]], WORD[e["count"]]))
    if op == "draw":
        n = e["count"]
        return "draw %d card%s" % (n, "" if n == 1 else "s")
    if op == "draw_then_discard":
        return ("draw %d cards, then discard as many cards as were drawn (up to %d)"
                % (e["draw"], e["discard"]))
    if op == "look_reorder":
        decks = {"own_artifact_deck": "your deck", "monument_deck": "the monument deck"}
        return ("look at the top %d cards of %s and put them back in any order"
                % (e["count"], " or of ".join(decks[d] for d in e["decks"])))
    if op == "straighten_own":
        what = tag_word(e["filter"]["tag"], True) if e.get("filter") else "components"
        return "%s one of your turned %s" % (
            "you may straighten" if e.get("optional", True) else "straighten", what)
    if op == "straighten_self":
        return "straighten this"
    if op == "gain_bound":
        if e["as"] == "gold":
            return "gain X Gold"
        return "gain X essences of one %stype%s" % (
            "other " if e.get("must_differ") else "", excluding(e.get("exclude", [])))
    if op == "gain_from_printed_cost":
        plus = " + %d" % e["plus"] if e.get("plus") else ""
        what = bound(e["from"])
        if e["as"] == "gold":
            return "gain Gold equal to the printed cost of %s%s" % (what, plus)
        return "gain as many essences as the printed cost of %s%s%s" % (
            what, plus, excluding(e.get("exclude", [])))
    if op == "place_artifact":
        tag = e.get("filter", {}).get("tag")
        what = "a " + tag_word(tag) if tag else "an artifact"
        where = {"hand": "your hand", "own_discard": "your discard pile",
                 "any_discard": "any player's discard pile"}[e["from"]]
        mod = e.get("cost_modifier")
        if not mod:
            how = "paying its cost"
        elif mod.get("set_to_zero"):
            how = "for free"
        else:
            how = "for %d less%s" % (mod["reduce"],
                                     " (not Gold)" if "gold" in mod.get("exclude", []) else "")
        return "%splace %s from %s, %s" % ("you may " if e.get("optional", True) else "",
                                          what, where, how)
    if op == "check_victory":
        return "check for victory now"
    if op == "ignore_life_loss":
        return "ignore that life loss"
    if op == "temp_vp":
        return "+%d VP for this victory check only" % e["amount"]
    raise SystemExit("gen_arcana_texts: unknown effect op %s" % op)


def collect(c):
    op = c["op"]
    if op in ("gain", "gain_any", "gain_choice"):
        return effect(c)
    if op == "if_left_on_self":
        held = "essences" if c["essence"] == "any" else WORD[c["essence"]]
        then = []
        for t in c["then"]:
            then.append("add 2 more of each type on it (on the card)"
                        if t["op"] == "add_two_per_type_on_self" else effect(t))
        return "if it holds %s and you leave its essences on it, %s" % (held, "; ".join(then))
    if op == "upkeep_or_turn":
        return "pay %s or turn this" % essences(c["pay"])
    raise SystemExit("gen_arcana_texts: unknown collect op %s" % op)


def passive(p):
    if p["op"] == "placement_discount":
        what = "artifacts" if p["applies_to"] == "artifact" else tag_word(p["applies_to"], True)
        return "your %s cost %d less to place%s" % (
            what, p["amount"], " (not Gold)" if "gold" in p.get("exclude", []) else "")
    raise SystemExit("gen_arcana_texts: unknown passive op %s" % p["op"])


def vp_per(v):
    if v["per"] == "essence_on_self":
        return "+%d VP per %s on it" % (v["vp"], WORD[v["essence"]])
    if v["per"] == "own_artifact_in_play_with_tag":
        return "+%d VP per %s you have in play" % (v["vp"], tag_word(v["tag"]))
    raise SystemExit("gen_arcana_texts: unknown VP formula %s" % v["per"])


def power(p, kind):
    head = "Power %d" % p["index"]
    if p["kind"] == "react":
        head += " (%s" % TRIGGER[p["trigger"]]
        head += ", also while turned)" if p.get("usable_when") == "either" else ")"
    elif p.get("usable_when") == "turned":
        head += " (only while this is turned)"
    cost = ", ".join(cost_part(c, False, kind) for c in p["cost"]) or "no cost"
    return "%s: %s -> %s." % (head, cost, "; ".join(effect(e) for e in p["effect"]))


def sentence(s):
    return s[0].upper() + s[1:]


def text(c):
    """The card's lines after its name, '\n' between them."""
    head = [KIND[c["kind"]]]
    head += [tag_word(t) for t in c.get("tags", [])]
    lines = [", ".join(head)]
    if c.get("cost") is not None:
        lines[0] += ". Cost: " + (essences(c["cost"]) if c["cost"] else "0 (nothing)")
    vp = ["%d VP" % c["vp"]] if c.get("vp") else []
    vp += [vp_per(v) for v in c.get("vp_per", [])]
    if vp:
        lines[0] += ". " + ", ".join(vp)
    lines[0] += "."
    pop = c.get("place_of_power")
    if pop:
        lines.append("Board %d, side %s (other side: %s)." % (pop["card"], pop["side"],
                                                            pop["other_side_id"]))
    for x in c.get("collect", []):
        lines.append("Collect: %s." % collect(x))
    for x in c.get("passives", []):
        lines.append("Always: %s." % passive(x))
    for x in c.get("on_claim", []):
        lines.append("When claimed: %s." % effect(x))
    for p in c.get("powers", []):
        lines.append(power(p, c["kind"]))
    if c.get("first_game_preset"):
        lines.append("First game: preset %d." % c["first_game_preset"])
    for n in c.get("notes", []):
        if not n.startswith("Checked against"):
            lines.append("Note: " + n)
    lines[0] = "%s (%s): %s" % (c["name"], c["id"], lines[0])
    return "\n".join(textwrap.fill(sentence(line), 78, subsequent_indent="    ")
                     for line in lines)


def short_cost(cost):
    """{"elan": 6, "any": 1} -> "E6 any1"; {} -> "0"; None -> ""."""
    if cost is None:
        return ""
    parts = ["%s%d" % (WORD[k][0], cost[k]) for k in ORDER if cost.get(k)]
    if cost.get("any"):
        parts.append("any%d" % cost["any"])
    return " ".join(parts) or "0"


def indexes(c, kind):
    return "".join(str(p["index"]) for p in c.get("powers", []) if p["kind"] == kind)


def main():
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    names = {c["id"]: c["name"] for c in data}
    out = [
        "/* SPDX-License-Identifier: MIT */",
        "/* Generated by client-cli/render/gen_arcana_texts.py from",
        " * server/games/arcana/data/arcana-cards.json: do not edit. */",
        '#include "arcana_texts.h"',
        "",
        "const struct arcana_text arcana_texts[] = {",
    ]
    for c in data:
        body = text(c)
        if c.get("place_of_power"):
            other = c["place_of_power"]["other_side_id"]
            body = body.replace("other side: %s" % other, "other side: %s" % names[other])
        out.append("    {%s, %s, %s, %s, %s, %s," % (
            c_string(c["id"]), c_string(c["name"]), c_string(c["kind"]),
            c_string(short_cost(c.get("cost"))), c_string(indexes(c, "action")),
            c_string(indexes(c, "react"))))
        out.append("     %s}," % c_string(body))
    out += ["};", "",
            "const size_t arcana_ntexts = sizeof(arcana_texts) / sizeof(arcana_texts[0]);", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
