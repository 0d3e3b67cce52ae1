#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes sorcerers_texts.js, the Sorcerers card texts the browser board
shows on every face-up card, from the game's card data (the same JSON the
rules core's table is generated from), in English and in Simplified
Chinese.

Usage: gen_sorcerers_texts.py server/games/sorcerers/data/sorcerers-cards.json \
           > web/games/sorcerers_texts.js

Each card keeps its printed name, type, power (null for a printed "-"),
classes and note, and gains `rules`: its abilities spelt out in a sentence
each, worded after docs/rules/sorcerers.md, because the printed notes are
single keywords ("Researcher") that a new player cannot read.

`zh` holds the same words in Chinese: the type, spell classes and printed
note through the terminal client's vocabulary
(client-cli/render/gen_sorc_texts.py, imported from there), the rules
through RULES_ZH below (our translation; an ability without Chinese words
stops the generator). A sorcerer is 巫师, as in the game's message
catalogue (lang/sorcerers.json). The Chinese names no card itself:
"@{id}" stands for a card's name, which the board fills in from the
catalogue, as the names of the cards themselves."""
import json
import sys

sys.dont_write_bytecode = True  # no cache of cli_words.py in the source tree
from cli_words import load  # noqa: E402

W = load("gen_sorc_texts.py")
# The card types as the terminal client names them (a sorcerer is 巫师, as
# the catalogue says).
TYPE_ZH = W.TYPE_ZH
FACTION_ZH = {"merlinian": "梅林派", "morganian": "摩根派"}
KIND_ZH = {"any": "牌", "card": "牌", "object": "物品牌", "sorcerer": "巫师牌",
           "spell": "法术牌", "amplifier": "增幅牌"}


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


def zh(table, word, what):
    if word not in table:
        raise SystemExit("gen_sorcerers_texts: no zh-CN words for the %s %r" % (what, word))
    return table[word]


def explain_zh(ab):
    """explain() in Chinese; None where explain() has no words."""
    kw = ab["kw"]
    if kw == "imbue":
        text = explain_zh(dict(ab, kw=ab["ability"]))
        return "灌注，它的巫师获得" + (text or ab["ability"])
    if kw == "pe_imbue":
        return "遭遇时从手牌打出（殉道者）：你的另一名巫师本回合获得率先出战，并代为出战。"
    if kw == "ea":
        effect = ab.get("effect")
        kind = zh(KIND_ZH, ab.get("what", "any"), "kind")
        texts = {
            "scry": "事件能力：直到回合结束，查看对手的手牌。",
            "draw": "事件能力：抽 %d 张牌。" % ab.get("count", 1),
            "divination": "事件能力：查看牌库顶的 %d 张牌。" % ab.get("count", 7),
            "track": "事件能力：在牌库中搜寻一张%s并拿取；然后洗混牌库。" % kind,
            "find": "事件能力：从弃牌堆拿一张%s到你的手牌。" % kind,
            "opponent_discards": "事件能力：对手弃掉自选的 %d 张牌。" % ab.get("count", 2),
            "steal_object": "事件能力：把对方巫师身上的一件物品移到你的一名巫师身上。",
            "skip_rest_of_turn": "事件能力：跳过本回合的遭遇和决斗。",
            "up_in_smoke": "事件能力：弃掉一件在场的物品（困魔偶除外）。",
        }
        return texts.get(effect, "事件能力。")
    if kw == "spell_mod":
        who = "你的" if ab.get("whose") == "own" else "对方的"
        return "%s%s法术力量 %+d。" % (who, zh(W.CLASS_ZH, ab.get("class", ""), "spell class"),
                                   ab.get("amount", 0))
    if kw == "negate":
        if ab.get("timing") == "defense":
            return "防御：亮牌后抵消对方的%s法术。" % zh(W.CLASS_ZH, ab.get("class", ""), "spell class")
        return "亮牌时：抵消对方的一张%s。" % zh(KIND_ZH, ab.get("target", "card"), "kind")
    ref = lambda x: "@{%s}" % x
    texts = {
        "grimhold": "困魔偶：开局在@{balthazar_blake}身上，从不离场；任何东西都不能弃掉它。",
        "first_to_fight": "率先出战：可以代替随机选中的巫师进入决斗。",
        "prime_mover": "原动者：离场时洗回牌库。",
        "nemesis": "宿敌：与%s的每场决斗都获胜。" % ref(ab.get("of", "")),
        "charisma": "魅力：你的另一名巫师决斗时，该巫师力量 +%d。" % ab.get("bonus", 1),
        "grimhold_gate": "门槛：首次招募此牌时，你的一名巫师身上须有困魔偶。",
        "repurpose": "改造：可在增幅牌栏位使用法术牌。",
        "greater_amplification": "强力增幅：你的增幅牌力量 +%d。" % ab.get("bonus", 1),
        "amplification": "增幅：你的增幅牌力量 +%d。" % ab.get("bonus", 1),
        "confidence": "自信：它决斗时，你在场的其他巫师每有一名，它的力量 +1。",
        "experience": "经验：它被选中决斗时，你抽 %d 张牌。" % ab.get("draw", 2),
        "charlatan": "江湖骗子：它输掉决斗时，胜者弃掉全部手牌。",
        "researcher": "研究者：传承阶段多抽 %d 张牌。" % ab.get("extra_draw", 1),
        "repository": "宝库：你的手牌上限提高 %d。" % ab.get("hand_size_bonus", 2),
        "betrayer": ("背叛者：决斗中可以出卖你的另一名巫师（%s除外），力量 +%d。"
                     % ("、".join(ref(x) for x in ab.get("exclude", [])) or "-", ab.get("bonus", 5))),
        "illusionist": "幻术师：可在法术栏位使用增幅牌。",
        "conjurer": "召唤师：使用%s法术时力量 +%d。" % (
            W.CLASS_ZH.get(ab.get("spell_class", "creature")), ab.get("bonus", 5)),
        "innocent": "无辜者：它被选中决斗时，对手随机弃掉 %d 张牌。" % ab.get("random_discards", 1),
        "deal_with_the_devil": "与魔鬼交易：传承阶段弃掉若干张牌，然后抽同样多的牌。",
        "hard_to_kill": "难以杀死：输掉决斗时若差距小于 %d，仍留在场上。" % ab.get("survives_if_margin_below", 5),
        "inquisition": "宗教审判：从败者手牌中多夺 %d 张牌。" % ab.get("extra_steals", 1),
        "protect": "保护：输掉决斗后，你的巫师和它的物品留在场上。",
        "sacrifice": "献祭：宣告后，决斗结束且没有胜者，决斗双方都离场。",
        "drain": "汲取：从对手手牌中随机拿 %d 张到你的手牌。" % ab.get("count", 1),
        "freeze": "冻结：决斗打平。",
        "use_as": "可当作力量 +%d 的%s使用。" % (ab.get("power", 0), KIND_ZH.get(ab.get("as", "amplifier"))),
        "discard_for_power": "亮牌后弃牌：每弃一张力量 +%d。" % ab.get("per_card", 1),
        "bonus_if_no_spell": "不使用法术时力量 +%d。" % ab.get("bonus", 0),
        "amp_mod_others": "你的其他增幅牌力量 +%d。" % ab.get("amount", 0),
        "faction_only": "只有%s能使用。" % FACTION_ZH.get(ab.get("faction", "")),
    }
    text = texts.get(kw)
    if text is not None and "None" in text:
        raise SystemExit("gen_sorcerers_texts: no zh-CN words for the ability %r" % ab)
    return text


def main():
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    names = names_of(data)
    out = [
        "// SPDX-License-Identifier: MIT",
        "// Generated by web/games/gen_sorcerers_texts.py from",
        "// server/games/sorcerers/data/sorcerers-cards.json: do not edit.",
        "// id -> {name, type, power (null: printed \"-\"), classes, note (printed), rules,",
        "// zh: {type, classes, note, rules} in Simplified Chinese, \"@{id}\" a card's name}",
        "export const SORC_CARDS = {",
    ]
    for c in data["cards"]:
        rules = [t for t in (explain(a, names) for a in c.get("abilities", [])) if t]
        rules_zh = [t for t in (explain_zh(a) for a in c.get("abilities", [])) if t]
        if len(rules_zh) != len(rules):
            raise SystemExit("gen_sorcerers_texts: %s: the Chinese rules are not the English ones"
                             % c["id"])
        note = c.get("note", "")
        entry = {
            "name": c["name"],
            "type": c["type"],
            "power": c.get("power"),
            "classes": c.get("classes", []),
            "note": note,
            "rules": rules,
            "zh": {
                "type": zh(TYPE_ZH, c["type"], "type"),
                "classes": [zh(W.CLASS_ZH, k, "spell class") for k in c.get("classes", [])],
                "note": zh(W.NOTE_ZH, note, "ability") if note else "",
                "rules": rules_zh,
            },
        }
        out.append("  %s: %s," % (json.dumps(c["id"]), json.dumps(entry, ensure_ascii=False)))
    out += ["};", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
