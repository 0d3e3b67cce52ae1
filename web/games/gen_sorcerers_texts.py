#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes sorcerers_texts.js, the Sorcerers card texts the browser board
shows on every face-up card, from the game's card data (the same JSON the
rules core's table is generated from).

Usage: gen_sorcerers_texts.py server/games/sorcerers/data/sorcerers-cards.json \
           > web/games/sorcerers_texts.js

Each card keeps its printed name, type, power (null for a printed "-"),
classes and note, and gains `rules`: its abilities spelt out in a sentence
each, worded after docs/rules/sorcerers.md, because the printed notes are
single keywords ("Researcher") that a new player cannot read."""
import json
import sys


def names_of(data):
    return {c["id"]: c["name"] for c in data["cards"]}


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def explain(ab, names):
    """One ability of the card data in words; None for keywords whose
    printed note already says everything."""
    kw = ab["kw"]
    if kw == "imbue":
        inner = dict(ab, kw=ab["ability"])
        text = explain(inner, names)
        return "Imbue, its sorcerer gains " + (text or ab["ability"])
    if kw == "pe_imbue":
        return ("Played from hand in the Encounter (Martyr): another of your sorcerers "
                "gains First to Fight for the turn and fights instead.")
    if kw == "ea":
        effect = ab.get("effect")
        what = ab.get("what", "any")
        kind = "card" if what == "any" else what
        texts = {
            "scry": "Event Ability: see the opponent's hand until the turn ends.",
            "draw": "Event Ability: draw %s." % plural(ab.get("count", 1), "card"),
            "divination": "Event Ability: see the top %s of the deck." % plural(ab.get("count", 7), "card"),
            "track": "Event Ability: search the deck for a %s and take it; the deck is then shuffled." % kind,
            "find": "Event Ability: take a %s from the discard pile into your hand." % kind,
            "opponent_discards": "Event Ability: the opponent discards %s of their choice." % plural(ab.get("count", 2), "card"),
            "steal_object": "Event Ability: move an object from an opposing sorcerer to one of yours.",
            "skip_rest_of_turn": "Event Ability: the Encounter and the Duel of this turn are skipped.",
            "up_in_smoke": "Event Ability: discard an object in play (never the Grimhold).",
        }
        return texts.get(effect, "Event Ability.")
    if kw == "spell_mod":
        who = "Your" if ab.get("whose") == "own" else "The opposing"
        amount = ab.get("amount", 0)
        return "%s %s spell gets %+dP." % (who, ab.get("class", ""), amount)
    if kw == "negate":
        if ab.get("timing") == "defense":
            return ("Defense: negates the opposing %s spell after the reveal." % ab.get("class", ""))
        return "At the reveal: negates an opposing %s." % ab.get("target", "card")
    texts = {
        "grimhold": "The Grimhold: starts on Balthazar Blake and never leaves play; nothing may discard it.",
        "first_to_fight": "First to Fight: may step into the duel in place of the randomly picked sorcerer.",
        "prime_mover": "Prime Mover: when it leaves play it is shuffled back into the deck.",
        "nemesis": "Nemesis: wins every duel against %s." % names.get(ab.get("of", ""), "its nemesis"),
        "charisma": "Charisma: while another of your sorcerers duels, it gets +%dP." % ab.get("bonus", 1),
        "grimhold_gate": "Gate: the first recruit of this card needs the Grimhold on one of your sorcerers.",
        "repurpose": "Repurpose: may use a spell in an amplifier slot.",
        "greater_amplification": "Greater Amplification: your amplifiers get +%dP." % ab.get("bonus", 1),
        "amplification": "Amplification: your amplifiers get +%dP." % ab.get("bonus", 1),
        "confidence": "Confidence: when it duels, +1P for each other sorcerer of yours in play.",
        "experience": "Experience: you draw %s when it is chosen to duel." % plural(ab.get("draw", 2), "card"),
        "charlatan": "Charlatan: when it loses a duel, the winner discards its whole hand.",
        "researcher": "Researcher: draw %s more in the Lore phase." % plural(ab.get("extra_draw", 1), "card"),
        "repository": "Repository: your hand limit is %d higher." % ab.get("hand_size_bonus", 2),
        "betrayer": ("Betrayer: may betray another of your sorcerers (not %s) in a duel for +%dP."
                     % (", ".join(names.get(x, x) for x in ab.get("exclude", [])) or "-", ab.get("bonus", 5))),
        "illusionist": "Illusionist: may use an amplifier in the spell slot.",
        "conjurer": "Conjurer: +%dP with a %s spell." % (ab.get("bonus", 5), ab.get("spell_class", "creature")),
        "innocent": "Innocent: when it is chosen to duel, the opponent discards %s at random." % plural(ab.get("random_discards", 1), "card"),
        "deal_with_the_devil": "Deal with the Devil: in the Lore phase discard cards, then draw as many.",
        "hard_to_kill": "Hard to Kill: stays in play after losing a duel by less than %d." % ab.get("survives_if_margin_below", 5),
        "inquisition": "Inquisition: steals %s more from the loser's hand." % plural(ab.get("extra_steals", 1), "card"),
        "protect": "Protect: after losing a duel, your sorcerer and its objects stay in play.",
        "sacrifice": "Sacrifice: when declared, the duel ends with no winner and both duelists leave play.",
        "drain": "Drain: moves %s at random from the opponent's hand to yours." % plural(ab.get("count", 1), "card"),
        "freeze": "Freeze: the duel is a tie.",
        "use_as": "May be used as a +%dP %s." % (ab.get("power", 0), ab.get("as", "amplifier")),
        "discard_for_power": "Discard cards after the reveal: +%dP for each." % ab.get("per_card", 1),
        "bonus_if_no_spell": "+%dP when you use no spell." % ab.get("bonus", 0),
        "amp_mod_others": "Your other amplifiers get +%dP." % ab.get("amount", 0),
        "faction_only": "Only the %ss may use it." % ab.get("faction", "").capitalize(),
    }
    return texts.get(kw)


def main():
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    names = names_of(data)
    out = [
        "// SPDX-License-Identifier: MIT",
        "// Generated by web/games/gen_sorcerers_texts.py from",
        "// server/games/sorcerers/data/sorcerers-cards.json: do not edit.",
        "// id -> {name, type, power (null: printed \"-\"), classes, note (printed), rules}",
        "export const SORC_CARDS = {",
    ]
    for c in data["cards"]:
        rules = [t for t in (explain(a, names) for a in c.get("abilities", [])) if t]
        entry = {
            "name": c["name"],
            "type": c["type"],
            "power": c.get("power"),
            "classes": c.get("classes", []),
            "note": c.get("note", ""),
            "rules": rules,
        }
        out.append("  %s: %s," % (json.dumps(c["id"]), json.dumps(entry, ensure_ascii=False)))
    out += ["};", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
