/* SPDX-License-Identifier: MIT */
/*
 * lang_zh.c - the client's strings in Simplified Chinese (zh-CN), each
 * beside its English, the key it is looked up by (lang.c), in the order the
 * sources use them. A format keeps its English's conversions, in the same
 * order or numbered (%2$s) to take them in another;
 * tests/unit/client/check_cli_messages.py holds the table to the sources.
 * The games' terms follow the Chinese rulebook where there is one (Res
 * Arcana's essences, components and actions) and the message catalogues
 * (lang/<game>.json); the rest is our translation.
 */
#include "lang.h"

const struct cli_tr_pair cli_zh_cn[] = {
    /* ---- client-cli/choices.c ---- */
    {"done", "完成"},
    {"pass", "跳过"},
    {"encounter", "遭遇"},
    {"deal", "交易"},
    {"recruit", "招募"},
    {"discard", "弃掉"},
    {"protect", "保护"},
    {"steal", "偷取"},
    {"clear mind", "清空思绪"},
    {"track", "追踪"},
    {"combo spell", "组合：法术"},
    {"combo event", "组合：事件"},
    {"combo amp", "组合：增幅"},
    {"equip", "装备"},
    {"defense", "防御"},
    {"move object", "移动物品"},
    {"discard object", "弃掉物品"},
    {"place grimhold", "放置 Grimhold"},
    {"activate", "发动"},
    {"combo declare", "组合：宣告"},
    {"negate", "抵消"},
    {"sorcerer", "巫师"},
    {"sacrifice", "献祭"},
    {"betray", "背叛"},
    {"choices", "选择"},
    {"keep", "保留"},
    {"first to fight", "率先出战"},
    {"martyr", "殉道者"},
    {"yes", "是"},
    {"no", "否"},
    {"none", "无"},
    {" and ", "和"},
    {" on ", "，目标 "},
    {" to ", " 到 "},
    {"nothing to do now\n", "现在没有可做的事\n"},
    {"  %s: %zu choices (`legal %s` lists them)\n", "  %s：%zu 个选择（`legal %s` 会列出它们）\n"},
    {"no \"%s\" choices now\n", "现在没有“%s”类的选择\n"},
    /* ---- client-cli/conn.c ---- */
    {"conclave: warning: %s is another machine, reached over plain TCP: your seat's token, name an"
     "d chat cross the network unencrypted. Play over TLS with --server wss://HOST:PORT (its concl"
     "aved serves --http with a certificate, or --tls-self-signed).\n",
     "conclave：警告：%s 是另一台机器，经由明文 TCP 连接：你座位的令牌、名字和聊天内容都未经加密地"
     "穿过网络。请用 --server wss://HOST:PORT 通过 TLS 游戏（它的 conclaved 以带证书的 --http 或 -"
     "-tls-self-signed 提供服务）。\n"},
    {"conclave: server must be HOST:PORT or wss://HOST:PORT, not %s\n",
     "conclave：服务器应写作 HOST:PORT 或 wss://HOST:PORT，而不是 %s\n"},
    {"conclave: host name too long\n", "conclave：主机名太长\n"},
    {"conclave: no port in %s\n", "conclave：%s 中没有端口\n"},
    {"conclave: cannot connect to %s: %s\n", "conclave：无法连接到 %s：%s\n"},
    /* ---- client-cli/lang.c ---- */
    {"conclave: CONCLAVE_LANG=%s is not a language of this client (en, zh-CN); it is left aside\n",
     "conclave：CONCLAVE_LANG=%s 不是本客户端的语言（en、zh-CN），已忽略\n"},
    /* ---- client-cli/main.c ---- */
    {"usage: conclave [--server HOST:PORT] [--name NAME] [--json] COMMAND\n"
     "\n"
     "Commands:\n"
     "  create GAME [--seats N] [--bots] [--bot-level LEVEL] [--public] [--clock CLOCK]\n"
     "              [--timeout bot|lose|skip] [--option KEY=VALUE]...\n"
     "                      open a room (you take seat 0 and host it); --bots starts\n"
     "                      at once with bots in the empty seats; --bot-level sets the\n"
     "                      room's bot level (random, easy, normal, hard; the server's\n"
     "                      default is normal), also for a bot that keeps a seat\n"
     "                      --clock gives the room turn clocks: fischer:10m+5s (base\n"
     "                      and increment), bank:30s/5m (free time per move, then a\n"
     "                      bank), correspondence:1d/3d (time per move, up to a bank);\n"
     "                      units s, m, h, d; --timeout says what running out of time\n"
     "                      does: bot (a bot plays the seat of a player who is not\n"
     "                      there; the default), lose (two seats) or skip (the turn)\n"
     "  join CODE [--seat N]   take a seat in a friend's room; CODE may be a link,\n"
     "                      CODE@HOST:PORT#sha256=HEX (a server over TLS, its certificate)\n"
     "  spectate CODE       watch a room\n"
     "  resume              go back to your last seat (token kept in\n"
     "                      $XDG_STATE_HOME/conclave/session.json)\n"
     "  list                public rooms waiting for players, and public games that\n"
     "                      finished lately\n"
     "  info                the games this server offers, with their options\n"
     "  games               every seat saved here, on every server, and whose turn it is\n"
     "  wait [CODE]         wait until it is your turn at a saved seat (of room CODE)\n"
     "                      and print it: exit 0, or 3 once every game is over\n"
     "  record CODE [FILE]  a finished game's record, from anywhere: saved to FILE (for\n"
     "                      `conclave replay FILE`), or printed\n"
     "  replay RECORD.json  check a finished game's record with the rules engine\n"
     "\n"
     "Options:\n"
     "  --server HOST:PORT  default $CONCLAVE_SERVER or 127.0.0.1:7717; wss://HOST:PORT\n"
     "                      plays over WebSocket with TLS (the server's --http with a\n"
     "                      certificate): a certificate that no authority vouches for is\n"
     "                      trusted on first use and must stay the same (kept in\n"
     "                      $XDG_STATE_HOME/conclave/known_servers.json)\n"
     "  --pin SHA256:HEX    trust the wss:// server's certificate with this SHA-256 (the\n"
     "                      one conclaved prints at start), and only it\n"
     "  --ca FILE           trust certificates signed by the authority in FILE (PEM) too\n"
     "  --name NAME         default $CONCLAVE_NAME or $USER\n"
     "  (CONCLAVE_BELL=0 turns off the bell that rings when it becomes your turn;\n"
     "  NO_COLOR turns off colours)\n"
     "  --lang en|zh-CN     the language of what conclave writes (default $CONCLAVE_LANG,\n"
     "                      else the terminal's locale: $LC_ALL, $LC_MESSAGES, $LANG)\n"
     "  --json              scripted mode: after the command (or straight away when\n"
     "                      there is none, without hello), stdin lines go to the server\n"
     "                      and server lines to stdout\n"
     "\n"
     "Example: conclave create stones --seats 2, share the code it prints,\n"
     "         your friend runs: conclave join K7QF2M\n",
     "用法：conclave [--server HOST:PORT] [--name NAME] [--json] 命令\n"
     "\n"
     "命令：\n"
     "  create GAME [--seats N] [--bots] [--bot-level LEVEL] [--public] [--clock CLOCK]\n"
     "              [--timeout bot|lose|skip] [--option KEY=VALUE]...\n"
     "                      开一个房间（你坐 0 号座位并担任房主）；--bots 立即开始，\n"
     "                      空座位由机器人补上；--bot-level 设定房间的机器人等级\n"
     "                      （random、easy、normal、hard；服务器默认 normal），也用于\n"
     "                      接管座位的机器人；--clock 给房间加上回合计时：\n"
     "                      fischer:10m+5s（基础时间加每步增加），bank:30s/5m（每步的\n"
     "                      免费时间，然后用存时），correspondence:1d/3d（每步的时间，\n"
     "                      最多存到上限）；单位 s、m、h、d；--timeout 决定超时后\n"
     "                      怎样：bot（不在场玩家的座位由机器人接手；默认），lose\n"
     "                      （两人局）或 skip（跳过该回合）\n"
     "  join CODE [--seat N]   加入朋友的房间；CODE 可以是链接，\n"
     "                      CODE@HOST:PORT#sha256=HEX（经 TLS 的服务器及其证书）\n"
     "  spectate CODE       观看一个房间\n"
     "  resume              回到你上次的座位（令牌保存在\n"
     "                      $XDG_STATE_HOME/conclave/session.json）\n"
     "  list                等待玩家的公开房间，以及最近结束的公开对局\n"
     "  info                本服务器提供的游戏及其选项\n"
     "  games               本机保存的每个座位（任何服务器上的），以及轮到谁\n"
     "  wait [CODE]         等到在某个已保存的座位（房间 CODE 的）轮到你，然后\n"
     "                      显示出来：退出码 0；所有对局都结束时为 3\n"
     "  record CODE [FILE]  一局已结束对局的记录，可从任何地方获取：保存到 FILE\n"
     "                      （供 `conclave replay FILE` 使用），或直接显示\n"
     "  replay RECORD.json  用规则引擎检查一局已结束对局的记录\n"
     "\n"
     "选项：\n"
     "  --server HOST:PORT  默认为 $CONCLAVE_SERVER 或 127.0.0.1:7717；wss://HOST:PORT\n"
     "                      经由带 TLS 的 WebSocket 游戏（服务器带证书的 --http）：\n"
     "                      没有证书机构担保的证书在首次使用时被信任，之后必须保持\n"
     "                      不变（保存在 $XDG_STATE_HOME/conclave/known_servers.json）\n"
     "  --pin SHA256:HEX    只信任 SHA-256 为此值的 wss:// 服务器证书（conclaved 启动\n"
     "                      时会显示它）\n"
     "  --ca FILE           也信任由 FILE（PEM）中的证书机构签发的证书\n"
     "  --name NAME         默认为 $CONCLAVE_NAME 或 $USER\n"
     "  （CONCLAVE_BELL=0 关闭轮到你时响起的提示音；NO_COLOR 关闭颜色）\n"
     "  --lang en|zh-CN     conclave 显示文字所用的语言（默认为 $CONCLAVE_LANG，\n"
     "                      否则按终端的区域设置：$LC_ALL、$LC_MESSAGES、$LANG）\n"
     "  --json              脚本模式：命令之后（没有命令时立即开始，不发 hello），\n"
     "                      标准输入的每行发给服务器，服务器的每行写到标准输出\n"
     "\n"
     "示例：conclave create stones --seats 2，把它显示的房间码分享出去，\n"
     "      你的朋友运行：conclave join K7QF2M\n"},
    {"conclave: --option takes KEY=VALUE\n", "conclave：--option 的取值是 KEY=VALUE\n"},
    {"conclave: %s takes a whole number from %ld to %ld, not \"%s\"\n",
     "conclave：%s 的取值是 %ld 到 %ld 之间的整数，而不是“%s”\n"},
    {"conclave: --clock takes fischer:BASE+INCREMENT, bank:MOVE/BANK or correspondence:PER_MOVE/BA"
     "NK (units s, m, h, d), not \"%s\"\n",
     "conclave：--clock 的取值是 fischer:基础+增加、bank:每步/存时 或 correspondence:每步/存时（单"
     "位 s、m、h、d），而不是“%s”\n"},
    {"conclave: a join link is CODE@HOST:PORT, with #sha256=<64 hex digits> for a server over TLS,"
     " not %s\n",
     "conclave：加入链接的形式是 CODE@HOST:PORT，经 TLS 的服务器再加上 #sha256=<64 位十六进制数>，"
     "而不是 %s\n"},
    {"conclave: %s needs a value\n", "conclave：%s 需要一个值\n"},
    {"conclave: unknown option %s\n", "conclave：未知选项 %s\n"},
    {"conclave: unexpected argument %s\n", "conclave：多余的参数 %s\n"},
    {"conclave: a pin is for a server over TLS, --server wss://HOST:PORT\n",
     "conclave：pin 只用于经 TLS 的服务器，--server wss://HOST:PORT\n"},
    {"conclave: --timeout is for a room with a --clock\n",
     "conclave：--timeout 只用于带 --clock 的房间\n"},
    {"%-10s %-28s %lld-%lld players  options %s\n", "%-10s %-28s %lld-%lld 人  选项 %s\n"},
    {"bot levels:", "机器人等级："},
    {"  (create --bot-level LEVEL, or `start bots LEVEL...`)\n",
     "  （create --bot-level 等级，或 `start bots 等级...`）\n"},
    {"days", "天"},
    {"h", "小时"},
    {"min", "分钟"},
    {"s", "秒"},
    {"no public rooms are waiting\n", "没有等待中的公开房间\n"},
    {"%s  %-10s %lld/%lld seats  host %s\n", "%s  %-10s %lld/%lld 个座位  房主 %s\n"},
    {"finished lately (`conclave record CODE FILE` keeps one's record):\n",
     "最近结束的对局（`conclave record CODE FILE` 保存其记录）：\n"},
    {"%s  %-10s %s  ended %s ago\n", "%s  %-10s %s  %s前结束\n"},
    {"  %zu) room %s, seat %lld, as %s, on %s\n",
     "  %zu) 房间 %s，座位 %lld，名字 %s，服务器 %s\n"},
    {"conclave: no saved seat to resume%s\n", "conclave：没有可恢复的已保存座位%s\n"},
    {" that fits what you asked", "符合你的要求"},
    {"conclave: several saved seats fit; say which with `conclave resume CODE` (or --name NAME):\n",
     "conclave：有多个已保存的座位符合；请用 `conclave resume CODE`（或 --name NAME）指明是哪个："
     "\n"},
    {"Several saved seats:\n", "有多个已保存的座位：\n"},
    {"Resume which (1-%zu)? ", "恢复哪一个（1-%zu）？"},
    {"conclave: no such choice\n", "conclave：没有这个选项\n"},
    {"conclave: the room is on %s; going there\n", "conclave：房间在 %s 上，正在前往\n"},
    {"conclave: no answer from %s\n", "conclave：%s 没有应答\n"},
    {"conclave: --lang takes en or zh-CN, not \"%s\"\n",
     "conclave：--lang 的取值是 en 或 zh-CN，而不是“%s”\n"},
    {"conclave: replay needs a record file (saved with `record FILE` at the end of a game, or `con"
     "clave record CODE FILE`)\n"
     "\n",
     "conclave：replay 需要一个记录文件（在对局结束时用 `record FILE` 保存，或用 `conclave record "
     "CODE FILE`）\n"
     "\n"},
    {"conclave: %s takes %s, not \"%s\"\n", "conclave：%s 的参数是%s，而不是“%s”\n"},
    {"no argument", "空（不带参数）"},
    {"a room code", "一个房间码"},
    {"conclave: unknown command \"%s\"\n"
     "\n",
     "conclave：未知命令“%s”\n"
     "\n"},
    {"conclave: %s needs a room code, e.g. conclave %s K7QF2M\n"
     "\n",
     "conclave：%s 需要一个房间码，例如 conclave %s K7QF2M\n"
     "\n"},
    {"conclave: \"%s\" is not a room code: a code has six characters, letters and digits, like K7Q"
     "F2M\n",
     "conclave：“%s”不是房间码：房间码由六个字母和数字组成，例如 K7QF2M\n"},
    {"conclave: create needs a game, e.g. conclave create stones (`conclave info` lists them)\n"
     "\n",
     "conclave：create 需要指定游戏，例如 conclave create stones（`conclave info` 会列出它们）\n"
     "\n"},
    {"conclave: watch it with: conclave spectate %s (a finished game's record: conclave record %s "
     "FILE)\n",
     "conclave：可以这样观看：conclave spectate %s（已结束对局的记录：conclave record %s FILE）\n"},
    {"conclave: could not save the resume token\n", "conclave：无法保存恢复令牌\n"},
    /* ---- client-cli/render/arcana.c ---- */
    {"place CARD                place an artifact from your hand\n"
     "claim CARD | claim deck   claim a monument (display or deck top) or a Place of Power;\n"
     "                          also: claim monument CARD|deck, claim pop CARD\n"
     "monument CARD|deck        claim a monument\n"
     "pop CARD                  claim a Place of Power\n"
     "discard CARD              discard a card from your hand for 1 Gold or 2 others\n"
     "use CARD [0|1]            use power 0 or 1 of your component (the only one if omitted)\n"
     "pass                      pass (you pick a new magic item next)\n"
     "pay ESS                   pay one essence: e(lan), l(ife), c(alm), d(eath), g(old)\n"
     "same ESS|none             the type of a same-type amount, or none (X = 0)\n"
     "more                      one more of that type\n"
     "done                      stop paying that type\n"
     "gain ESS                  gain one essence\n"
     "target CARD|none          choose a card (to destroy, turn, place, ...), or none\n"
     "rival SEAT                pick a rival (seat number or name)\n"
     "deck own|monument         the deck to look at\n"
     "order CARD                the next card from the top when putting cards back\n"
     "lose                      take a life loss\n"
     "ignore                    pay the attack's ignore cost\n"
     "react CARD [N]            answer a life loss with a React power\n"
     "lose ESS                  lose one essence (not Life)\n"
     "statue yes|no             use the Golden Statue at a victory check, or not\n"
     "item CARD                 take a magic item from the supply\n"
     "take                      Collect: take all essences off the card named\n"
     "keep | leave CARD         Collect: leave them on it (`leave` alone leaves the room)\n"
     "forge pay|turn            Collect: pay 1 Death for the Cursed Forge, or turn it\n"
     "mage CARD                 keep this mage\n"
     "draft CARD | pick CARD    draft a card\n"
     "first SEAT                duel: who is First Player of the next game (me, a seat)\n"
     "card NAME                 what a card does (e.g. card fire dragon, card vault)\n"
     "Cards: any unique prefix of a card's id or name (fire_d, Fire Dragon, vau).\n",
     "place CARD                从手牌放置一件神器\n"
     "claim CARD | claim deck   拿取一座纪念碑（展示区或牌堆顶）或一个力量之地；\n"
     "                          也可以：claim monument CARD|deck、claim pop CARD\n"
     "monument CARD|deck        拿取一座纪念碑\n"
     "pop CARD                  拿取一个力量之地\n"
     "discard CARD              从手牌舍弃一张牌，获得 1 黄金或 2 个其他精华\n"
     "use CARD [0|1]            使用你的元件的力量 0 或 1（只有一个时可省略）\n"
     "pass                      跳过（之后你挑选一件新的魔法道具）\n"
     "pay ESS                   支付一个精华：e 热情、l 生命、c 冷静、d 死亡、g 黄金\n"
     "same ESS|none             同种精华数量的种类，或 none（X = 0）\n"
     "more                      再付一个该种精华\n"
     "done                      停止支付该种精华\n"
     "gain ESS                  获得一个精华\n"
     "target CARD|none          选择一张牌（要摧毁、横置、放置……的），或 none\n"
     "rival SEAT                选择一名对手（座位号或名字）\n"
     "deck own|monument         要查看的牌堆\n"
     "order CARD                放回牌时，从顶部起的下一张牌\n"
     "lose                      承受生命流失\n"
     "ignore                    支付该攻击的忽略花费\n"
     "react CARD [N]            以反应力量回应生命流失\n"
     "lose ESS                  失去一个精华（生命除外）\n"
     "statue yes|no             在检查胜利时是否使用金像\n"
     "item CARD                 从供应区拿一件魔法道具\n"
     "take                      收集：拿走所指的牌上的全部精华\n"
     "keep | leave CARD         收集：把精华留在牌上（单独的 `leave` 会离开房间）\n"
     "forge pay|turn            收集：为诅咒熔炉支付 1 死亡，或横置它\n"
     "mage CARD                 保留这名法师\n"
     "draft CARD | pick CARD    轮抽一张牌\n"
     "first SEAT                对决：谁担任下一局的起始玩家（me，或一个座位）\n"
     "card NAME                 一张牌的作用（例如 card fire dragon、card vault）\n"
     "牌：一张牌的 id 或名字的任意唯一前缀（fire_d、Fire Dragon、vau）；中文下也可以用\n"
     "中文名。\n"},
    {"Elan", "热情"},
    {"Life", "生命"},
    {"Calm", "冷静"},
    {"Death", "死亡"},
    {"Gold", "黄金"},
    {" (turned)", "（横置）"},
    {" (none)", "（无）"},
    {"choosing mages", "选择法师"},
    {"drafting artifacts", "轮抽"},
    {"picking magic items", "选择魔法道具"},
    {"Collect", "收集"},
    {"Actions", "行动"},
    {"victory check", "检查胜利"},
    {"duel: choosing the next First Player", "对决：选择下一局的起始玩家"},
    {"duel: face-up draft", "对决：明牌轮抽"},
    {"game over", "游戏结束"},
    {"%sRes Arcana%s  round %ld  %s", "%sRes Arcana%s  第 %ld 轮  %s"},
    {"  First Player: %s%s", "  起始玩家：%s%s"},
    {" (passed side)", "（已跳过面）"},
    {"Duel, game %ld of 3: %s %lld - %lld %s", "对决，三局中的第 %ld 局：%s %lld - %lld %s"},
    {"%s game %zu won by %s", "%s第 %zu 局胜者 %s"},
    {"nobody (shared)", "无（共享）"},
    {"To act:", "待行动："},
    {"Monuments (4 Gold):", "纪念碑（4 黄金）："},
    {"%ld face down in the deck", "牌堆中还有 %ld 张面朝下"},
    {"Places of Power:\n", "力量之地：\n"},
    {"%s's\n", "属于 %s\n"},
    {"unclaimed, cost %s\n", "无人拿取，花费 %s\n"},
    {"Magic items in the supply:", "供应区的魔法道具："},
    {"VP %ld", "胜利点数 %ld"},
    {"pool %s", "精华池 %s"},
    {"hand %ld  deck %ld", "手牌 %ld  牌库 %ld"},
    {"PASSED", "已跳过"},
    {"[First Player]", "[起始玩家]"},
    {"    mage: %s\n", "    法师：%s\n"},
    {"chosen", "已选定"},
    {"still choosing", "仍在选择"},
    {"    kept %ld card%s; %s\n", "    已保留 %ld 张牌%.0s；%s\n"},
    {"has picked", "已选好"},
    {"still picking", "仍在挑选"},
    {"    in play:", "    场上："},
    {" (mage)", "（法师）"},
    {" (item)", "（道具）"},
    {"    mage %s, magic item %s\n", "    法师 %s，魔法道具 %s\n"},
    {"none yet", "尚无"},
    {"    discard pile:", "    弃牌堆："},
    {"    looked at %ld cards of %s\n", "    查看了%2$s的 %1$ld 张牌\n"},
    {"the monument deck", "纪念碑牌堆"},
    {"their own deck", "自己的牌库"},
    {"%sYour hand%s (%zu):", "%s你的手牌%s（%zu）："},
    {"Your two mages to choose from:", "供你选择的两名法师："},
    {"Your draft pack:", "你的轮抽牌组："},
    {"You kept:", "你保留了："},
    {"You are looking at (top first):", "你正在查看（顶部在前）："},
    {"The known top of your deck:", "你牌库顶已知的牌："},
    {"The known top of the monument deck:", "纪念碑牌堆顶已知的牌："},
    {"Your mage (secret until all have chosen): %s\n", "你的法师（所有人选定前保密）：%s\n"},
    {"Your pick (secret until all have picked): %s\n", "你挑选的牌（所有人挑选前保密）：%s\n"},
    {"the action", "该行动"},
    {"%s's power %ld", "%s的力量 %ld"},
    {"destroy", "摧毁"},
    {"place", "放置"},
    {"straighten", "转正"},
    {"turn", "横置"},
    {"choose", "选择"},
    {"Your turn: place, claim, discard, use or pass (`legal` lists them).\n",
     "轮到你：放置、拿取、舍弃、使用或跳过（`legal` 会列出它们）。\n"},
    {"%sDecision%s for each player still choosing: ", "%s待决%s（每位仍在选择的玩家）："},
    {"%sDecision%s for %s%s: ", "%s待决%s（%s%s）："},
    {"pay for placing %s", "为放置%s支付"},
    {"pay for %s", "为%s支付"},
    {", %ld more to pay", "，还需支付 %ld"},
    {" (paid %s)", "（已支付 %s）"},
    {" - `pay ESS`", " - `pay ESS`"},
    {"which type to pay X essences of, for %s - `same ESS` or `same none`",
     "为%s支付 X 个精华，选择其种类 - `same ESS` 或 `same none`"},
    {"pay one more of the same type for %s%s%s%s - `more` or `done`",
     "为%s再支付一个同种精华%s%s%s - `more` 或 `done`"},
    {" (paid ", "（已支付 "},
    {"gain %ld more essence%s from %s - `gain ESS`",
     "从%3$s再获得 %1$ld 个精华%2$.0s - `gain ESS`"},
    {"gain for discarding %s: 1 Gold, or 2 others one at a time - `gain ESS`",
     "为舍弃%s获得：1 黄金，或逐个获得 2 个其他精华 - `gain ESS`"},
    {"a card", "一张牌"},
    {"choose a card to %s", "选择一张牌来%s"},
    {"receive the essence", "接收精华"},
    {" and ignore the attack of %s's %s", "，以忽略%s的%s的攻击"},
    {" for %s", "（为%s）"},
    {" - `target CARD` or `target none`", " - `target CARD` 或 `target none`"},
    {"pick a rival for %s - `rival SEAT`", "为%s选择一名对手 - `rival SEAT`"},
    {"which deck to look at for %s - `deck own` or `deck monument`",
     "为%s选择要查看的牌堆 - `deck own` 或 `deck monument`"},
    {"put the looked-at cards back, naming the next from the top - `order CARD`",
     "把查看过的牌放回，从顶部起逐张指定 - `order CARD`"},
    {"%s attacks with %s: lose %ld Life - `lose`, `ignore` or `react CARD`",
     "%s用%s攻击：失去 %ld 生命 - `lose`、`ignore` 或 `react CARD`"},
    {"lose %ld more essence%s (not Life) - `lose ESS`",
     "再失去 %ld 个精华%.0s（生命除外）- `lose ESS`"},
    {"use the Golden Statue (turn it, pay 3 Gold) for +3 VP at this check - `statue yes` or `statu"
     "e no`",
     "使用金像（横置它，支付 3 黄金）在本次检查中 +3 胜利点数 - `statue yes` 或 `statue no`"},
    {"take a magic item from the supply - `item CARD`", "从供应区拿一件魔法道具 - `item CARD`"},
    {"take all the essences off %s, or leave them - `take` or `keep`",
     "拿走%s上的全部精华，或留在上面 - `take` 或 `keep`"},
    {"pay 1 Death for the Cursed Forge, or turn it - `forge pay` or `forge turn`",
     "为诅咒熔炉支付 1 死亡，或横置它 - `forge pay` 或 `forge turn`"},
    {"keep one of your two mages - `mage CARD`", "在你的两名法师中保留一名 - `mage CARD`"},
    {"draft a card - `draft CARD`", "轮抽一张牌 - `draft CARD`"},
    {"who is First Player of the next game - `first SEAT`",
     "谁担任下一局的起始玩家 - `first SEAT`"},
    {"%s (`legal` lists the choices)", "%s（`legal` 会列出选择）"},
    {"%sGame over%s: ", "%s游戏结束%s："},
    {" share the win", " 共享胜利"},
    {" wins", " 获胜"},
    {" the duel;", "对决；"},
    {" games won", " 局胜"},
    {" VP", " 胜利点数"},
    {" (round limit)", "（轮数上限）"},
    {"Face-up cards to draft:", "可轮抽的明牌："},
    {"artifact", "神器"},
    {"magic_item", "魔法道具"},
    {"monument", "纪念碑"},
    {"place_of_power", "力量之地"},
    {"mage", "法师"},
    {"no %s \"%s\"", "没有名为“%2$s”的%1$s"},
    {"card", "牌"},
    {"name a card", "请说出一张牌的名字"},
    {"\"%s\" could be %s or %s%s: type more of the name", "“%s”可能是%s或%s%s：请多输入一些名字"},
    {" or others", "或其他"},
    {"%s has no %s power", "%s没有%s力量"},
    {"React", "反应"},
    {"action", "行动"},
    {"%s has powers %c and %c: say which (e.g. %s %s %c)",
     "%s有力量 %c 和 %c：请指明是哪个（例如 %s %s %c）"},
    {"claim CARD: a monument, `deck` or a Place of Power",
     "claim CARD：一座纪念碑、`deck` 或一个力量之地"},
    {"%s is neither a monument nor a Place of Power", "%s既不是纪念碑也不是力量之地"},
    {"react CARD [N]", "react CARD [N]"},
    {"use CARD [0|1]", "use CARD [0|1]"},
    {"empty command", "空命令"},
    {"%s takes one essence: e(lan), l(ife), c(alm), d(eath), g(old)%s",
     "%s 需要一个精华：e（热情）、l（生命）、c（冷静）、d（死亡）、g（黄金）%s"},
    {" or none", "或 none"},
    {"%s SEAT: a seat number%s or a player's name", "%s SEAT：一个座位号%s或玩家的名字"},
    {", me", "、me"},
    {"%s needs a card%s", "%s 需要一张牌%s"},
    {"%s: not that way; type help", "%s：不是这样用的；输入 help 查看"},
    {"unknown command \"%s\"", "未知命令“%s”"},
    {"place %s", "放置%s"},
    {"claim the top monument of the deck (4 Gold)", "拿取牌堆顶的纪念碑（4 黄金）"},
    {"claim the monument %s (4 Gold)", "拿取纪念碑%s（4 黄金）"},
    {"claim the Place of Power %s", "拿取力量之地%s"},
    {"discard %s for 1 Gold or 2 other essences", "舍弃%s，获得 1 黄金或 2 个其他精华"},
    {"use %s, power %ld", "使用%s的力量 %ld"},
    {"pass (then pick a new magic item)", "跳过（然后挑选一件新的魔法道具）"},
    {"pay 1 %s", "支付 1 %s"},
    {"gain 1 %s", "获得 1 %s"},
    {"lose 1 %s", "失去 1 %s"},
    {"pay none of one type (X = 0)", "同种精华一个也不付（X = 0）"},
    {"pay X in %s, starting with 1", "以%s支付 X，先付 1 个"},
    {"pay one more of that type", "再支付一个该种精华"},
    {"stop paying that type", "停止支付该种精华"},
    {"choose no card", "不选择牌"},
    {"choose %s", "选择%s"},
    {"pick seat %ld as the rival", "选择座位 %ld 作为对手"},
    {"look at %s", "查看%s"},
    {"your own deck", "你自己的牌库"},
    {"put %s next from the top", "把%s作为顶部的下一张"},
    {"take the life loss", "承受生命流失"},
    {"pay the attack's ignore cost", "支付该攻击的忽略花费"},
    {"react with %s, power %ld", "以%s的力量 %ld 反应"},
    {"use the Golden Statue (3 Gold, +3 VP at this check)",
     "使用金像（3 黄金，本次检查 +3 胜利点数）"},
    {"do not use the Golden Statue", "不使用金像"},
    {"take the magic item %s", "拿取魔法道具%s"},
    {"take the essences off the card", "拿走牌上的精华"},
    {"leave the essences on the card", "把精华留在牌上"},
    {"pay 1 Death for the Cursed Forge", "为诅咒熔炉支付 1 死亡"},
    {"turn the Cursed Forge", "横置诅咒熔炉"},
    {"keep the mage %s", "保留法师%s"},
    {"draft %s", "轮抽%s"},
    {"seat %ld is First Player of the next game", "座位 %ld 担任下一局的起始玩家"},
    {"%s (%s): ", "%s（%s）："},
    {"The scores are games won in the duel (best of three; a shared game counts for nobody).\n",
     "得分是对决中赢下的局数（三局两胜；共享胜利的一局不算给任何人）。\n"},
    {"  game %zu:", "  第 %zu 局："},
    {" and", " 和"},
    {" shared it", " 共享胜利"},
    {" won", " 获胜"},
    {";  VP", "；  胜利点数"},
    {"Tied on VP: the pool decides (each Gold counts 2):",
     "胜利点数相同：由精华池决定（每个黄金算 2）："},
    {"Round 50 ended without 10 VP: the round limit ended the game, most VP won.\n",
     "第 50 轮结束时无人达到 10 胜利点数：轮数上限结束了游戏，胜利点数最多者获胜。\n"},
    /* ---- client-cli/render/element.c ---- */
    {"draw N                    draw N stones (0 to 4); each one not drawn is one more step\n"
     "step SQ                   move your Sage one square (e.g. step f6); also: move SQ\n"
     "jump SQ                   jump your Sage over Wind to SQ (free)\n"
     "place STONE SQ            place a drawn stone (fire, water, earth, wind or the Silver one);"
     "\n"
     "                          also: fire SQ, water SQ, ...\n"
     "pick STONE                choose the stone to place next: the moves then list its squares\n"
     "chain SQ                  add a square to the river that flows (when asked)\n"
     "flow SQ                   steer the river's Headwater to SQ\n"
     "grow SQ                   grow a Wood on SQ (after a river fed a Wood)\n"
     "grow done                 stop growing\n"
     "attract | repel           what a Metal just placed does\n"
     "remove SQ | keep          remove another Lightning, or keep them all\n"
     "corrode SQ                the Metal that corrosion takes\n"
     "end                       end your turn; also: done\n"
     "card ELEMENT              the rules of fire, water, earth, wind, lightning, wood, metal,\n"
     "                          sage, end\n",
     "draw N                    抽 N 颗石子（0 到 4）；每少抽一颗就多走一步\n"
     "step SQ                   让你的贤者走一格（例如 step f6）；也可以：move SQ\n"
     "jump SQ                   让你的贤者越过风跳到 SQ（免费）\n"
     "place STONE SQ            放置一颗抽到的石子（fire、water、earth、wind 或银扩展\n"
     "                          的）；也可以：fire SQ、water SQ ...\n"
     "pick STONE                选择下一颗要放的石子：之后的行动会列出它能放的格子\n"
     "chain SQ                  为正在流动的河流加一格（被问到时）\n"
     "flow SQ                   把河流的源头引向 SQ\n"
     "grow SQ                   在 SQ 长出一个木（河流流入木之后）\n"
     "grow done                 停止生长\n"
     "attract | repel           刚放下的金要吸引还是排斥\n"
     "remove SQ | keep          移除另一个闪电，或全部保留\n"
     "corrode SQ                被腐蚀掉的那个金\n"
     "end                       结束你的回合；也可以：done\n"
     "card ELEMENT              火、水、土、风、闪电、木、金（fire water earth wind\n"
     "                          lightning wood metal）、贤者（sage）、终局（end）\n"
     "                          的规则\n"},
    {"fire", "火"},
    {"water", "水"},
    {"earth", "土"},
    {"wind", "风"},
    {"lightning", "闪电"},
    {"wood", "木"},
    {"blaze", "烈焰"},
    {"metal", "金"},
    {"silver", "银"},
    {"draw", "抽石"},
    {"act", "行动"},
    {"chain", "连河"},
    {"flow", "河流流动"},
    {"grow", "生长"},
    {"magnet", "磁力"},
    {"remove", "移除"},
    {"corrode", "腐蚀"},
    {"surrounded", "贤者被围"},
    {"bag_empty", "袋子已空"},
    {"round_limit", "轮数上限"},
    {"forfeit", "认输"},
    {"attract", "吸引"},
    {"repel", "排斥"},
    {"nothing", "无"},
    {"Open: %s placed on %s", "待决：%s 放在了 %s"},
    {"; the river so far: ", "；目前的河流："},
    {" (`chain SQ` to add the next stone)", "（`chain SQ` 加入下一颗石子）"},
    {"; river of %ld: ", "；长 %ld 的河流："},
    {"; flowed through: ", "；流经："},
    {" (`flow SQ` steers it)", "（`flow SQ` 引导它）"},
    {"; %ld Wood may grow (`grow SQ`, `grow done`)",
     "；还可以长出 %ld 个木（`grow SQ`、`grow done`）"},
    {" (`attract` or `repel`)", "（`attract` 或 `repel`）"},
    {" (`remove SQ` another Lightning, or `keep`)", "（`remove SQ` 移除另一个闪电，或 `keep`）"},
    {" (`corrode SQ`: the Metal that goes)", "（`corrode SQ`：被腐蚀掉的金）"},
    {"%sElement%s%s%s  round %ld%s  phase %s  turn: %s\n",
     "%s元素%s%s%s  第 %ld 轮%s  阶段 %s  回合：%s\n"},
    {" + Silver ", " + 银扩展 "},
    {" (the last)", "（最后一轮）"},
    {"%s@%zu %s%s: Sage on %s, hunts %s's Sage\n", "%s@%zu %s%s：贤者在 %s，猎捕 %s 的贤者\n"},
    {"Bag: ", "袋子："},
    {"%s's turn: ", "%s 的回合："},
    {"drew %lld; to place: ", "抽了 %lld 颗；待放置："},
    {"; steps left %ld, jumps left %ld", "；剩余步数 %ld，剩余跳跃 %ld"},
    {"; picked %s", "；已选 %s"},
    {"to draw (`draw N`)\n", "等待抽石（`draw N`）\n"},
    {"Legend: F fire, W water, E earth (E2 Mountain, ^ Range), A wind (A2-A4 Whirlwind,\n"
     "        * Storm), L lightning, T wood, B blaze, M metal, @N the Sage of seat N\n",
     "图例：F 火，W 水，E 土（E2 山，^ 山脉），A 风（A2-A4 旋风，* 风暴），\n"
     "      L 闪电，T 木，B 烈焰，M 金，@N 座位 N 的贤者\n"},
    {"%sGame over%s: %s\n", "%s游戏结束%s：%s\n"},
    {"draw takes a number of stones from 0 to 4 (e.g. draw 2)",
     "draw 需要 0 到 4 之间的石子数（例如 draw 2）"},
    {"pick STONE, e.g. pick fire", "pick 石子，例如 pick fire"},
    {"place STONE SQUARE, e.g. place fire f6 (or: fire f6)",
     "place 石子 格子，例如 place fire f6（或：fire f6）"},
    {"%s needs one square, a1 to k11 (e.g. %s f6)", "%s 需要一个格子，a1 到 k11（例如 %s f6）"},
    {"draw %ld stone%s (%ld extra step%s)", "抽 %ld 颗石子%.0s（额外 %ld 步%.0s）"},
    {"step to %s", "移动到 %s"},
    {"jump over Wind to %s", "越过风跳到 %s"},
    {"place %s on %s", "把%s放在 %s"},
    {"pick %s to place", "选择要放置的%s"},
    {"add %s to the river", "把 %s 加入河流"},
    {"flow to %s", "河流流向 %s"},
    {"grow Wood on %s", "在 %s 长出木"},
    {"stop growing Wood", "停止长木"},
    {"%s the Metal", "%s金"},
    {"remove the Lightning on %s", "移除 %s 上的闪电"},
    {"keep the other Lightning", "保留另一个闪电"},
    {"corrode the Metal on %s", "腐蚀 %s 上的金"},
    {"end the turn", "结束回合"},
    {"Fire: on an empty square or on Wind (a whole Whirlwind burns). Placed in line\n"
     "with Fire (orthogonally), each line it joins spreads: a free Fire from the bag\n"
     "lands on the empty or Wind square beyond the far end. Water replaces Fire.",
     "火：放在空格或风上（整个旋风都会烧掉）。与火（横竖方向）连成一线时，它所加入的\n"
     "每条线都会蔓延：从袋子里免费取一个火，落在远端之外的空格或风上。水可以取代火。"},
    {"Water: on an empty square or on Fire. Placed next to Water (orthogonally) it\n"
     "becomes the Headwater and the whole river must flow as many squares as it has\n"
     "stones, like a snake, turning as you steer it (`flow SQ`); it puts out Fire on\n"
     "its way. Earth replaces Water.",
     "水：放在空格或火上。放在水的旁边（横竖方向）时，它成为源头，整条河流必须像蛇一\n"
     "样流动与其石子数相同的格数，按你的引导转向（`flow SQ`）；沿途会浇灭火。土可以\n"
     "取代水。"},
    {"Earth: on an empty square or on Water. Earth on Earth makes a Mountain (two\n"
     "high); Earth touching a Mountain, even diagonally, is a Range. Mountains and\n"
     "Ranges cannot be replaced and block diagonal steps between them. Wind replaces\n"
     "single Earth.",
     "土：放在空格或水上。土叠在土上成为山（两层高）；与山相接（斜向也算）的土成为山\n"
     "脉。山和山脉不能被取代，并阻挡在它们之间斜走。风可以取代单层的土。"},
    {"Wind: on an empty square or on single Earth; Wind on Wind stacks into a\n"
     "Whirlwind (up to four). A Sage next to Wind may jump it for free: the higher\n"
     "the stack, the farther. Fire replaces Wind.",
     "风：放在空格或单层的土上；风叠在风上成为旋风（最多四层）。风旁边的贤者可以免费\n"
     "越过它：叠得越高，跳得越远。火可以取代风。"},
    {"Lightning (Silver): on any square without a Sage; everything there goes back\n"
     "to the bag. Placing one may remove another Lightning. Wind touching Lightning\n"
     "is a Storm and cannot be jumped.",
     "闪电（银扩展）：放在任何没有贤者的格子上；那里的一切都回到袋子里。\n"
     "放下一个闪电时可以移除另一个闪电。与闪电相接的风成为风暴，不能被越过。"},
    {"Wood (Silver): only on an empty square. Fire on Wood is a Blaze, which makes\n"
     "its lines spread by two. Water on a Blaze removes both. A river flowing into Wood\n"
     "is absorbed, and each absorbed Water grows a new Wood where you choose.",
     "木（银扩展）：只能放在空格上。火放在木上成为烈焰，使它所在的线蔓延两格。水放在\n"
     "烈焰上会把两者都移除。流入木的河流会被吸收，每吸收一个水，就在你选择的地方长出\n"
     "一个新的木。"},
    {"Metal (Silver): only on an empty square; then it attracts or repels the Metal\n"
     "along its eight lines. Fire on Earth or Earth on Fire smelts into Metal. Wind on\n"
     "Water or Water on single Wind corrodes: both go, with a Metal of your choice.",
     "金（银扩展）：只能放在空格上；然后它沿八个方向吸引或排斥金。火放在土上或土放在\n"
     "火上会熔炼成金。风放在水上或水放在单层风上会腐蚀：两者都被移除，连同你选择的一\n"
     "个金。"},
    {"sage", "贤者"},
    {"Your Sage steps one square to any of the eight empty squares around it (not\n"
     "diagonally between two Mountain or Range stones), one step per stone you did not\n"
     "draw and one more; next to Wind it may jump over it for free, one square farther\n"
     "per Wind in the stack, onto an empty square.",
     "你的贤者每步走到周围八个空格中的任意一格（不能斜着穿过两个山或山脉之间），每少\n"
     "抽一颗石子多走一步，另外再加一步；在风旁边时可以免费越过它，风每叠一层就多跳一\n"
     "格，落在空格上。"},
    {"end", "终局"},
    {"The game ends the moment a Sage has no step and no jump: the player who hunts\n"
     "it wins. You may never leave your own Sage without a move. When a turn starts\n"
     "with the bag empty, every player has one last turn; then, or after 300 rounds,\n"
     "the game ends without a winner.",
     "一旦有贤者既不能走也不能跳，游戏立即结束：猎捕它的玩家获胜。你绝不能让自己的贤\n"
     "者无路可走。若某个回合开始时袋子已空，每位玩家再进行最后一个回合；之后，或在 3\n"
     "00 轮之后，游戏以无人获胜结束。"},
    {"A Sage was surrounded: its hunter wins.\n", "有贤者被围住了：猎捕它的玩家获胜。\n"},
    {"The bag ran empty and the last round caught no Sage: nobody wins.\n",
     "袋子已空，最后一轮也没有捉住贤者：无人获胜。\n"},
    {"300 rounds were played without a Sage caught: nobody wins.\n",
     "进行了 300 轮仍没有捉住贤者：无人获胜。\n"},
    /* ---- client-cli/render/sorcerers.c ---- */
    {"deal CARD                 discard a card to Deal with the Devil (lore_faust)\n"
     "done                      end the step (lore_faust, recruit, clear your mind)\n"
     "recruit CARD              put a sorcerer from your hand into play\n"
     "equip CARD SORCERER       equip an object from your hand\n"
     "move OBJECT SORCERER      move an object between your sorcerers\n"
     "drop OBJECT               discard an object (recruit, object overflow)\n"
     "place SORCERER            place the Grimhold\n"
     "activate CARD [TARGET] [TO]  use an Event Ability\n"
     "pass                      pass (event, defense, protect)\n"
     "track CARD|none           take a card from the deck list\n"
     "discard CARD              discard a card (hex/illusion, hand limit)\n"
     "keep                      keep the random encounter pick\n"
     "ftf SORCERER              bring a First to Fight sorcerer forward\n"
     "martyr SORCERER           play Martyr for another sorcerer\n"
     "spell CARD|none           combo step 1\n"
     "event CARD|none           combo step 2\n"
     "amp CARD|none             combo steps 3-5 (once per step)\n"
     "declare [sacrifice] [betray SORCERER]  combo step 6\n"
     "clear CARD                discard a card for Clear your Mind\n"
     "negate CARD=TARGET|none ...  reveal negations, in slot order\n"
     "defense CARD TARGET       play a Defense negation card\n"
     "protect CARD              protect your defeated sorcerer\n"
     "steal CARD                take a card from the loser's hand\n"
     "help                      this list\n"
     "Card names may be abbreviated to any unique prefix of an id in the view.\n",
     "deal CARD                 弃掉一张牌与魔鬼交易（lore_faust）\n"
     "done                      结束这一步（lore_faust、招募、清空思绪）\n"
     "recruit CARD              把手牌中的一名巫师投入场上\n"
     "equip CARD SORCERER       从手牌装备一件物品\n"
     "move OBJECT SORCERER      在你的巫师之间移动一件物品\n"
     "drop OBJECT               弃掉一件物品（招募、物品过多时）\n"
     "place SORCERER            放置 Grimhold\n"
     "activate CARD [TARGET] [TO]  使用一个事件能力\n"
     "pass                      跳过（事件、防御、保护）\n"
     "track CARD|none           从牌库列表中拿一张牌\n"
     "discard CARD              弃掉一张牌（诅咒/幻象、手牌上限）\n"
     "keep                      保留随机抽中的遭遇巫师\n"
     "ftf SORCERER              让一名率先出战的巫师上前\n"
     "martyr SORCERER           为另一名巫师打出殉道者\n"
     "spell CARD|none           组合第 1 步\n"
     "event CARD|none           组合第 2 步\n"
     "amp CARD|none             组合第 3-5 步（每步一次）\n"
     "declare [sacrifice] [betray SORCERER]  组合第 6 步\n"
     "clear CARD                为清空思绪弃掉一张牌\n"
     "negate CARD=TARGET|none ...  按槽位顺序亮出抵消\n"
     "defense CARD TARGET       打出一张防御抵消牌\n"
     "protect CARD              保护你被击败的巫师\n"
     "steal CARD                从败者的手牌中拿一张牌\n"
     "help                      本列表\n"
     "牌名可以缩写为视图中任一 id 的唯一前缀（在中文下也可以用中文牌名）。\n"},
    {"lore_faust", "浮士德传说"},
    {"event", "事件"},
    {"event_track", "事件：追踪"},
    {"event_discard", "事件：弃牌"},
    {"duel_combo", "对决：组合"},
    {"duel_clear_mind", "对决：清空思绪"},
    {"duel_negate", "对决：抵消"},
    {"duel_defense", "对决：防御"},
    {"duel_protect", "对决：保护"},
    {"duel_steal", "对决：偷取"},
    {"object_overflow", "物品过多"},
    {"grimhold_place", "放置 Grimhold"},
    {"end_discard", "回合末弃牌"},
    {"pending", "未定"},
    {"winner", "有胜者"},
    {"tie", "平局"},
    {"no_duel", "无对决"},
    {"destroy_morgana", "摧毁摩根娜"},
    {"prime_merlinian_succession", "梅林首徒传承"},
    {"rising_spell", "升起之咒"},
    {"army_of_sorcerers", "巫师大军"},
    {"simultaneous", "同时达成"},
    {"turn_limit", "回合上限"},
    {"(none)", "（无）"},
    {"%s%s%s (%s)%s  hand %ld/%ld%s\n", "%s%s%s（%s）%s  手牌 %ld/%ld%s\n"},
    {"Merlinians", "梅林派"},
    {"Morganians", "摩根派"},
    {"  [submitted]", "  [已提交]"},
    {" (first to fight)", "（率先出战）"},
    {"%sDuel%s (%s)", "%s对决%s（%s）"},
    {" winner seat %ld by %ld%s", " 胜者座位 %ld，领先 %ld%s"},
    {", protected", "，受保护"},
    {" - Morgana destroyed", " - 摩根娜被摧毁"},
    {"  seat %zu: %s (picked %s)", "  座位 %zu：%s（抽中 %s）"},
    {" total %ld\n"
     "    spell %s, event %s, amps ",
     " 总计 %ld\n"
     "    法术 %s，事件 %s，增幅 "},
    {"; negated ", "；被抵消 "},
    {"; defense %s, protect %s%s%s", "；防御 %s，保护 %s%s%s"},
    {", SACRIFICE", "，献祭"},
    {", betrays ", "，背叛 "},
    {"%sSorcerers%s  turn %ld/%ld  phase %s  active:", "%s巫师%s  回合 %ld/%ld  阶段 %s  行动者："},
    {"%s on %s; deck %ld; markers Dave %ld, Morgana %ld\n",
     "%s在 %s 上；牌库 %ld；标记 Dave %ld，Morgana %ld\n"},
    {"Discard (%zu): ", "弃牌堆（%zu）："},
    {"(empty)\n", "（空）\n"},
    {"Event priority: seat %ld; activated: ", "事件优先：座位 %ld；已发动："},
    {"Opponent's hand (Vision)", "对手的手牌（预见）"},
    {"Top of deck", "牌库顶"},
    {"Deck (track)", "牌库（追踪）"},
    {"Loser's hand", "败者的手牌"},
    {"%sYour hand%s: ", "%s你的手牌%s："},
    {"Your combo draft (%ld/6): spell %s, event %s, amps ",
     "你的组合草稿（%ld/6）：法术 %s，事件 %s，增幅 "},
    {"Moved: %s from seat %ld to seat %ld\n", "移动：%s 从座位 %ld 到座位 %ld\n"},
    {"%sGame over%s: %s, winners ", "%s游戏结束%s：%s，获胜者 "},
    {"%s needs %d argument(s); type help", "%s 需要 %d 个参数；输入 help 查看"},
    {"write each negation as CARD=TARGET or CARD=none", "每个抵消写作 CARD=TARGET 或 CARD=none"},
    {"unknown command '%s'; type help", "未知命令“%s”；输入 help 查看"},
    {"%s: %s%s%s%s, power %d. %s\n", "%s：%s%s%s%s，力量 %d。%s\n"},
    /* ---- client-cli/render/stones.c ---- */
    {"yellow", "黄"},
    {"green", "绿"},
    {"blue", "蓝"},
    {"red", "红"},
    {"brown", "棕"},
    {"Metal", "金"},
    {"Wood", "木"},
    {"Water", "水"},
    {"Fire", "火"},
    {"Earth", "土"},
    {"standard", "标准"},
    {"novice", "新手"},
    {"cooperative", "合作"},
    {"place_taoist", "放置道士"},
    {"cast", "施法"},
    {"choose_stone", "选择灵石"},
    {"offer", "献石"},
    {"move", "移动元神"},
    {"craft", "炼制"},
    {"pay", "支付"},
    {"reward", "奖励"},
    {"%sAlchemy Zone%s\n", "%s炼丹区%s\n"},
    {"  %s (%d) at (%lld,%lld): ", "  %s（%d）位于 (%lld,%lld)："},
    {"Supply (front first): ", "灵石供应（前端在先）："},
    {"  %ld pts", "  %ld 分"},
    {"Artifacts (row, then deck top; %ld more below):\n",
     "法宝（一排，然后是牌堆顶；下面还有 %ld 张）：\n"},
    {"  team completed %zu, %ld stone(s) on the leftmost card\n",
     "  团队已完成 %zu 件，最左边的牌上有 %ld 颗灵石\n"},
    {"Element Zone (lower case: rune sites; digits: Spirits)\n",
     "五行区（小写字母：符文位置；数字：元神）\n"},
    {"Rune stacks:", "符文堆："},
    {"\n"
     "Qi supply %ld; objectives",
     "\n"
     "气的供应 %ld；目标"},
    {"%s%s%s (%s, seat %ld)%s Taoist %s", "%s%s%s（%s，座位 %ld）%s 道士 %s"},
    {", Spirit e(%lld,%lld), Qi %ld", "，元神 e(%lld,%lld)，气 %ld"},
    {", score %ld", "，得分 %ld"},
    {"\n"
     "    cards:",
     "\n"
     "    手牌："},
    {"  (deck %ld)", "  （牌堆 %ld）"},
    {"  reservoir ", "  储石 "},
    {"  runes ", "  符文 "},
    {"  crafted ", "  已炼成 "},
    {"%sSorcerer & Stones%s (%s) - %s's turn, phase %s%s\n",
     "%s御石仙人%s（%s）- 轮到%s，阶段 %s%s\n"},
    {" - FINAL ROUND", " - 最后一轮"},
    {"Decision: %s\n", "待决：%s\n"},
    {"You are seat %ld", "你是座位 %ld"},
    {" playing ", "，执 "},
    {"%sGame over:%s %s\n", "%s游戏结束：%s %s\n"},
    {"unknown or malformed command; type help", "未知或格式不对的命令；输入 help 查看"},
    {"turn any tile of the Alchemy Zone a quarter turn, clockwise or counter-clockwise. Always cas"
     "table. (R-stones-5.1)",
     "将炼丹区的任意一块砖顺时针或逆时针转动四分之一圈。随时可以施放。（R-stones-5.1）"},
    {"move your own Taoist to any tile (also the one it stands on). Always castable. (R-stones-5.2"
     ")",
     "把你自己的道士移到任意一块砖上（也可以是它所站的那块）。随时可以施放。（R-stones-5.2）"},
    {"move a tile to another position, or swap two tiles. Always castable. (R-stones-5.3)",
     "把一块砖移到另一个位置，或交换两块砖。随时可以施放。（R-stones-5.3）"},
    {"exchange a stone of the card's colour x with a stone of another colour anywhere on the Alche"
     "my Zone. Needs both on the board. (R-stones-5.4)",
     "将炼丹区上任意位置的一颗此牌颜色 x 的灵石与一颗其他颜色的灵石交换。两者都必须在版图上。（R-s"
     "tones-5.4）"},
    {"Objective O1", "目标 O1"},
    {"the longest line touching the activated tile: 3 stones, 1 Qi; 4, 1 Qi and a free step; 5 or "
     "more, 4 Qi and a free step.",
     "与被激活的砖相接的最长连线：3 颗灵石，1 点气；4 颗，1 点气和一次免费移动；5 颗或更多，4 点气"
     "和一次免费移动。"},
    {"Objective O2", "目标 O2"},
    {"stones gained in the turn: 2, 1 Qi; 3, 2 Qi; 4 or more, 4 Qi.",
     "本回合获得的灵石：2 颗，1 点气；3 颗，2 点气；4 颗或更多，4 点气。"},
    {"Objective O3", "目标 O3"},
    {"two or more gained stones of one colour: 3 Qi.", "获得两颗或更多同色灵石：3 点气。"},
    {"Objective O4", "目标 O4"},
    {"lines touching the activated tile: 2 or more, one free step.",
     "与被激活的砖相接的连线：2 条或更多，一次免费移动。"},
    {"Objective O5", "目标 O5"},
    {"after a craft, one free step, or a FLY of your own Taoist, or nothing.",
     "炼制之后，一次免费移动，或让你自己的道士飞行一次，或什么也不做。"},
    {"Objective O6", "目标 O6"},
    {"once a turn in the move step, pay a reservoir stone to step onto a cell of that stone's colo"
     "ur.",
     "每回合一次，在移动步骤中支付一颗储石，走到与该灵石同色的格子上。"},
    {"Objective O7", "目标 O7"},
    {"any two stones may be paid in place of one stone of any colour (crafting and O6).",
     "任意两颗灵石可以代替一颗任意颜色的灵石支付（炼制及 O6）。"},
    {"cost N Y Y, 2 points, Earth.", "花费 N Y Y，2 分，土。"},
    {"cost R R G, 2 points, Fire.", "花费 R R G，2 分，火。"},
    {"cost B B Y, 2 points, Water.", "花费 B B Y，2 分，水。"},
    {"cost G G B, 2 points, Wood.", "花费 G G B，2 分，木。"},
    {"cost N N R, 2 points, Metal.", "花费 N N R，2 分，金。"},
    {"cost B G R Y, 3 points, Wood and Water.", "花费 B G R Y，3 分，木与水。"},
    {"cost G R N B, 3 points, Wood and Fire.", "花费 G R N B，3 分，木与火。"},
    {"cost Y B N G, 3 points, Metal and Water.", "花费 Y B N G，3 分，金与水。"},
    {"cost N Y R B, 3 points, Earth and Metal.", "花费 N Y R B，3 分，土与金。"},
    {"cost R G Y N, 3 points, Earth and Fire.", "花费 R G Y N，3 分，土与火。"},
    {"cost N N Y Y R, 5 points, Earth and Wood.", "花费 N N Y Y R，5 分，土与木。"},
    {"cost Y Y R R B, 5 points, Metal and Fire.", "花费 Y Y R R B，5 分，金与火。"},
    {"cost B B G G N, 5 points, Water and Metal.", "花费 B B G G N，5 分，水与金。"},
    {"cost G G N R B, 5 points, Water and Wood.", "花费 G G N R B，5 分，水与木。"},
    {"%s%s%s: %s\n", "%s%s%s：%s\n"},
    {"black", "棕"},
    {" paying %s and %s", "，支付%s和%s"},
    {"place your Taoist on %s", "把你的道士放在 %s"},
    {"cast %s on %s %s", "施放 %s：将 %s %s转动"},
    {"clockwise", "顺时针"},
    {"counter-clockwise", "逆时针"},
    {"cast %s: fly to %s", "施放 %s：飞到 %s"},
    {"cast %s: move %s to %s", "施放 %s：把 %s 移到 %s"},
    {"cast %s: choose to move %s", "施放 %s：选择移动 %s"},
    {"cast %s: swap %s and %s", "施放 %s：交换 %s 和 %s"},
    {"cast %s: exchange %s and %s", "施放 %s：交换 %s 和 %s"},
    {"cast %s: choose the stone at %s", "施放 %s：选择 %s 的灵石"},
    {"choose %s to cast", "选择施放 %s"},
    {"stop casting", "停止施法"},
    {"discard %s", "弃掉 %s"},
    {"cancel what is being chosen", "取消正在选择的内容"},
    {"take the stone at %s", "拿取 %s 的灵石"},
    {"offer a %s stone", "献出一颗%s色灵石"},
    {"pay to step to %s%s", "付费走到 %s%s"},
    {"choose the stones%s%s", "选择灵石%s%s"},
    {"take the rune", "拿取符文"},
    {"stop moving", "停止移动"},
    {"craft %s", "炼制 %s"},
    {"pay a %s stone", "支付一颗%s色灵石"},
    {"pay a pair for %s%s", "用一对灵石代替%s色%s"},
    {"reward: step to %s", "奖励：走到 %s"},
    {"reward: move your Taoist to %s", "奖励：把你的道士移到 %s"},
    {"reward: decline", "奖励：放弃"},
    {"The team completed %lld artifacts: %s.\n", "团队完成了 %lld 件法宝：%s。\n"},
    {"no title", "没有称号"},
    {"  %s %lld artifacts crafted\n", "  %s 炼成 %lld 件法宝\n"},
    {"  %s runes %lld + artifacts %lld + Qi %lld + symbol bonus %lld + stone bonus %lld = %lld poi"
     "nts\n",
     "  %s 符文 %lld + 法宝 %lld + 气 %lld + 符号奖励 %lld + 灵石奖励 %lld = %lld 分\n"},
    {"place T            put your Taoist on tile T (Tn Tw Tc Te Ts, or 1-5)\n"
     "cast CARD          choose a card to cast, e.g. cast QUAKE-2 (then `legal` lists its\n"
     "                   choices; the commands below also cast in one go)\n"
     "cancel             drop the card, O7 pair or paid step being chosen\n"
     "spin T cw|ccw      cast SPIN on tile T\n"
     "fly T              cast FLY: your Taoist to tile T\n"
     "quake T [R C]      cast QUAKE: move tile T (to tile position (R,C))\n"
     "swap T U           cast QUAKE: swap tiles T and U\n"
     "shift X A [B]      cast SHIFT-X: exchange slot A (colour X) with slot B, e.g. shift R Tn.BR "
     "Tc.TL\n"
     "discard CARD       dead hand: discard a face-up card, e.g. discard SHIFT-N\n"
     "end                end the current step (casting, moving or the turn)\n"
     "endcast | endmove | endturn   the same, named explicitly\n"
     "choose S           take the stone in slot S, e.g. choose Tc.BL\n"
     "offer X            co-op: offer a gained stone of colour X (Y G B R N)\n"
     "step R C           move your Spirit to e(R,C)\n"
     "paystep R C [X Y]  O6: pay a stone (or two with O7) to step to e(R,C)\n"
     "paystep X Y        O6 with O7: first choose the two stones, then paystep R C\n"
     "rune               take the rune next to your Spirit\n"
     "craft A            craft artifact A (A01-A14, or 1-14)\n"
     "pay X              pay one stone of colour X\n"
     "pair X [Y Z]       O7: pay stones Y and Z for a cost stone X (or first choose X)\n"
     "rstep R C          O5 reward: free step to e(R,C)\n"
     "rfly T             O5 reward: move your Taoist to tile T\n"
     "skip               O5 reward: decline\n",
     "place T            把你的道士放到砖 T 上（Tn Tw Tc Te Ts，或 1-5）\n"
     "cast CARD          选择要施放的牌，例如 cast QUAKE-2（然后 `legal` 列出它的\n"
     "                   选择；下面的命令也能一次施放完）\n"
     "cancel             放弃正在选择的牌、O7 的一对或付费的一步\n"
     "spin T cw|ccw      对砖 T 施放旋转（SPIN）\n"
     "fly T              施放飞行（FLY）：你的道士飞到砖 T\n"
     "quake T [R C]      施放地震（QUAKE）：移动砖 T（到砖位 (R,C)）\n"
     "swap T U           施放地震（QUAKE）：交换砖 T 和 U\n"
     "shift X A [B]      施放挪移（SHIFT-X）：交换槽位 A（颜色 X）和槽位 B 的灵石，\n"
     "                   例如 shift R Tn.BR Tc.TL\n"
     "discard CARD       无牌可施：弃掉一张明牌，例如 discard SHIFT-N\n"
     "end                结束当前步骤（施法、移动或回合）\n"
     "endcast | endmove | endturn   同上，明确指出是哪一步\n"
     "choose S           拿取槽位 S 的灵石，例如 choose Tc.BL\n"
     "offer X            合作模式：献出一颗获得的颜色 X 的灵石（Y G B R N）\n"
     "step R C           把你的元神移到 e(R,C)\n"
     "paystep R C [X Y]  O6：支付一颗灵石（有 O7 时可付两颗）走到 e(R,C)\n"
     "paystep X Y        O6 加 O7：先选择两颗灵石，再 paystep R C\n"
     "rune               拿取你的元神旁边的符文\n"
     "craft A            炼制法宝 A（A01-A14，或 1-14）\n"
     "pay X              支付一颗颜色 X 的灵石\n"
     "pair X [Y Z]       O7：用灵石 Y 和 Z 代替一颗花费中的 X（或先选择 X）\n"
     "rstep R C          O5 奖励：免费走到 e(R,C)\n"
     "rfly T             O5 奖励：把你的道士移到砖 T\n"
     "skip               O5 奖励：放弃\n"},
    /* ---- client-cli/repl.c ---- */
    {"Commands:\n"
     "  help                 this list (and the game's commands)\n"
     "  legal                list what you may do now, numbered, by kind\n"
     "  legal KIND           every choice of one kind (a long list summarises them)\n"
     "  #N                   do the N-th action of the last `legal` list\n"
     "  act {JSON}           send an action object as it is\n"
     "  undo                 take back your last move (while nobody else has moved, and\n"
     "                       when it drew or showed nothing hidden)\n"
     "  say TEXT             chat to the room\n"
     "  card NAME            what a card does (e.g. card SPIN, card A07, card O3)\n"
     "  start [bots [LEVEL...]]  (host) start the game; `bots` fills empty seats with\n"
     "                       bots at the room's level, `bots hard` at that level,\n"
     "                       `bots easy hard` one level per empty seat in order\n"
     "                       (levels: random, easy, normal, hard)\n"
     "  who                  show the room and its seats\n"
     "  view                 draw the game again\n"
     "  raw                  print your view as JSON\n"
     "  sync                 ask the server for a fresh view\n"
     "  record [CODE] FILE   (after the end) save the game's record, or that of room CODE\n"
     "                       (a finished game), for `conclave replay FILE`\n"
     "  rematch              (after the end) play again: the first to ask opens a new room,\n"
     "                       with the seats moved round by one, and hosts it; the others\n"
     "                       say `rematch` to take their seats there\n"
     "  rematch no           decline the rematch offered (your seat there is given up)\n"
     "  notify [URL|off]     where you are told of your turn, a mention and the end while\n"
     "                       you are away: a webhook URL (an ntfy topic, a Discord or\n"
     "                       Matrix hook), off for none; alone, what you have\n"
     "  lang [en|zh-CN]      the language of what you read here; alone, the one in use\n"
     "  leave                leave the room (at a terminal, during a game: asked twice)\n"
     "  quit                 disconnect (your seat waits for `conclave resume`)\n",
     "命令：\n"
     "  help                 本列表（以及本游戏的命令）\n"
     "  legal                按种类编号列出你现在可以做的事\n"
     "  legal KIND           某一种类的全部选择（长列表会汇总显示）\n"
     "  #N                   执行上一个 `legal` 列表中的第 N 项\n"
     "  act {JSON}           原样发送一个行动对象\n"
     "  undo                 撤回你的上一步（在别人都还没行动，且这一步没有抽牌\n"
     "                       或亮出隐藏信息时）\n"
     "  say TEXT             在房间里聊天\n"
     "  card NAME            一张牌的作用（例如 card SPIN、card A07、card O3）\n"
     "  start [bots [LEVEL...]]  （房主）开始游戏；`bots` 让房间等级的机器人坐满空\n"
     "                       座位，`bots hard` 用该等级，`bots easy hard` 按顺序为每个\n"
     "                       空座位各指定一个等级（等级：random、easy、normal、hard）\n"
     "  who                  显示房间及其座位\n"
     "  view                 重新绘制游戏\n"
     "  raw                  以 JSON 显示你的视图\n"
     "  sync                 向服务器请求新的视图\n"
     "  record [CODE] FILE   （结束后）保存本局的记录，或房间 CODE（已结束的对局）的\n"
     "                       记录，供 `conclave replay FILE` 使用\n"
     "  rematch              （结束后）再来一局：第一个提出的人开一个新房间，座位轮换\n"
     "                       一位，并由他担任房主；其他人输入 `rematch` 去那里就座\n"
     "  rematch no           拒绝再战（你在那里的座位会让出）\n"
     "  notify [URL|off]     你不在时，轮到你、有人提到你和对局结束时通知到哪里：一个\n"
     "                       webhook 地址（ntfy 主题、Discord 或 Matrix 的 hook），off\n"
     "                       表示不通知；不带参数时显示当前设置\n"
     "  lang [en|zh-CN]      这里显示文字所用的语言；不带参数时显示当前语言\n"
     "  leave                离开房间（在终端上、对局进行中时：会再问一次）\n"
     "  quit                 断开连接（你的座位等你用 `conclave resume` 回来）\n"},
    {"%d empty seat%s: give one level for all, or one per empty seat\n",
     "有 %d 个空座位%.0s：请为全部座位给出一个等级，或为每个空座位各给一个\n"},
    {"lobby", "等待开始"},
    {"playing", "进行中"},
    {"ended", "已结束"},
    {"empty", "空座位"},
    {"human", "玩家"},
    {"bot", "机器人"},
    {"random", "随机"},
    {"easy", "简单"},
    {"normal", "普通"},
    {"hard", "困难"},
    {"fischer", "费舍尔计时"},
    {"bank", "存时计时"},
    {"correspondence", "通信计时"},
    {"Room %s  game %s  %s  host seat %lld  spectators %lld\n",
     "房间 %s  游戏 %s  %s  房主座位 %lld  观众 %lld\n"},
    {" (", "（"},
    {")", "）"},
    {"  seat %zu: %s %s %s%s\n", "  座位 %zu：%s %s %s%s\n"},
    {"connected", "在线"},
    {"away", "离开"},
    {"  <- you", "  <- 你"},
    {"clock (%s%s%s):", "计时（%s%s%s）："},
    {", out of time: ", "，超时："},
    {"loses", "判负"},
    {"skipped", "跳过"},
    {" out of time", " 已超时"},
    {") running", "）计时中"},
    {" running", " 计时中"},
    {"\n"
     "---- %s  rev %ld ----\n",
     "\n"
     "---- %s  第 %ld 版 ----\n"},
    {"-- chat --\n", "-- 聊天 --\n"},
    {">>> Your turn. Type `legal` for your choices.%s\n",
     ">>> 轮到你了。输入 `legal` 查看你的选择。%s\n"},
    {"the points", "分数"},
    {"the artifacts crafted", "炼成的法宝"},
    {"the artifacts the team completed", "团队完成的法宝"},
    {"a player owns all five rune types", "有玩家集齐了五种符文"},
    {"the artifact supply is empty", "法宝牌已用尽"},
    {"the Qi supply is empty", "气已用尽"},
    {"the position is frozen", "局面已僵持"},
    {"a fourth artifact was crafted", "已炼成第四件法宝"},
    {"no magic card is left", "法术牌已全部用完"},
    {"a player forfeited", "有玩家认输"},
    {"Morgana was destroyed", "摩根娜被摧毁"},
    {"the Prime Merlinian succession", "梅林首徒传承"},
    {"the rising spell", "升起之咒"},
    {"an army of sorcerers", "巫师大军"},
    {"both sides won at once", "双方同时获胜"},
    {"the turn limit", "回合上限"},
    {"a Sage was surrounded", "有贤者被围"},
    {"the bag ran empty", "袋子已空"},
    {"the round limit", "轮数上限"},
    {"cannot be checked (no seed or commitment)", "无法检查（没有种子或承诺）"},
    {"matches the commitment shown from the start", "与开局起显示的承诺相符"},
    {"DOES NOT MATCH the commitment shown at the start", "与开局时显示的承诺【不符】"},
    {"\n"
     "==== Game over ====\n",
     "\n"
     "==== 游戏结束 ====\n"},
    {"Nobody wins.\n", "无人获胜。\n"},
    {"Winners:", "获胜者："},
    {"Winner:", "获胜者："},
    {" (you)", "（你）"},
    {"Scores%s%s%s:", "得分%s%s%s："},
    {"Why it ended: %s\n", "结束原因：%s\n"},
    {"The seed %s.\n", "种子%s。\n"},
    {"Type `record FILE` to keep the record (then `conclave replay FILE` checks it)%s.\n",
     "输入 `record FILE` 保存记录（之后用 `conclave replay FILE` 检查它）%s。\n"},
    {", or `rematch` to play again", "，或输入 `rematch` 再来一局"},
    {"you declined the rematch; your seat there is free for anyone with its code\n",
     "你拒绝了再战；你在那里的座位空出来了，任何有房间码的人都可以坐\n"},
    {"Now in room %s as seat %d, the rematch of %s.\n",
     "现在在房间 %s，座位 %d，这是 %s 的再战。\n"},
    {"Rematch in room %s, offered by %s:", "房间 %s 中的再战，由 %s 发起："},
    {"accepted", "已接受"},
    {"declined", "已拒绝"},
    {"is a bot", "是机器人"},
    {"has not answered", "尚未回应"},
    {"Type `rematch` to take your seat there (seat %lld), or `rematch no` to decline.\n",
     "输入 `rematch` 去那里就座（座位 %lld），或输入 `rematch no` 拒绝。\n"},
    {"refused (%s): %s\n", "被拒绝（%s）：%s\n"},
    {"you left the room\n", "你离开了房间\n"},
    {"notices: none\n", "通知：无\n"},
    {"notices: %s%s%s%lld browser%s\n", "通知：%s%s%s%lld 个浏览器%.0s\n"},
    {"webhook ", "webhook "},
    {"(view out of step; asking for a fresh one)\n", "（视图不同步；正在请求新的视图）\n"},
    {"You host it: type `start` when everyone is in (`start bots` gives the empty seats to bots).",
     "你是房主：大家都到齐后输入 `start`（`start bots` 让机器人坐空座位）。"},
    {"Its host starts it when everyone is in.", "大家都到齐后由房主开始。"},
    {"%s took back a move\n", "%s 撤回了一步\n"},
    {"%s ran out of time: %s\n", "%s 超时了：%s\n"},
    {"a bot plays the seat", "由机器人接手该座位"},
    {"the seat loses", "该座位判负"},
    {"the turn is skipped", "跳过该回合"},
    {"plays on without a clock", "不再计时，继续游戏"},
    {"this seat was taken over by another connection\n", "这个座位被另一个连接接管了\n"},
    {"server: %s: %s\n", "服务器：%s：%s\n"},
    {"unknown command \"%s\"; did you mean `%s`? (type `help`)\n",
     "未知命令“%s”；你是想输入 `%s` 吗？（输入 `help` 查看命令）\n"},
    {"unknown command \"%s\" (type `help`)\n", "未知命令“%s”（输入 `help` 查看命令）\n"},
    {"\n"
     "%s commands:\n"
     "%s",
     "\n"
     "%s 的命令：\n"
     "%s"},
    {"no action #%s in the last list; type `legal`\n",
     "上一个列表中没有第 #%s 项；请输入 `legal`\n"},
    {"that list is out of date; here is the new one\n", "那个列表已经过时；这是新的列表\n"},
    {"act takes a JSON object: %s\n", "act 需要一个 JSON 对象：%s\n"},
    {"this client has no card texts for %s\n", "本客户端没有 %s 的卡牌说明\n"},
    {"no card \"%s\" in %s\n", "没有名为“%s”的牌（游戏 %s）\n"},
    {"(no view yet)", "（还没有视图）"},
    {"language: %s (`lang en` or `lang zh-CN` changes it)\n",
     "语言：%s（用 `lang en` 或 `lang zh-CN` 切换）\n"},
    {"lang takes en or zh-CN, not \"%s\"\n", "lang 的取值是 en 或 zh-CN，而不是“%s”\n"},
    {"language: %s\n", "语言：%s\n"},
    {"you hold a seat in a game under way; type `leave` again to leave the room (a bot takes your "
     "seat)\n",
     "你在一局进行中的对局里有座位；再输入一次 `leave` 即离开房间（机器人接手你的座位）\n"},
    {"%s (type `help`)\n", "%s（输入 `help` 查看命令）\n"},
    {"that command does not fit here", "这个命令此时不适用"},
    {"Connection lost; reconnecting...\n", "连接中断；正在重新连接……\n"},
    {"Back in room %s; what you missed follows.\n", "回到了房间 %s；以下是你错过的内容。\n"},
    {"cannot go back to room %s: %s\n", "无法回到房间 %s：%s\n"},
    {"gave up reconnecting to %s\n", "放弃重新连接 %s\n"},
    {"Watching room %s. Type `help` for commands.\n", "正在观看房间 %s。输入 `help` 查看命令。\n"},
    {"In room %s as seat %d. Share the code; type `help` for commands.\n",
     "你在房间 %s，座位 %d。把房间码分享出去；输入 `help` 查看命令。\n"},
    {"Friends join over TLS, this certificate alone, with: conclave join %s\n",
     "朋友们经 TLS、只认这张证书加入：conclave join %s\n"},
    {"the server closed the connection\n", "服务器关闭了连接\n"},
    {"line too long\n", "这一行太长了\n"},
    /* ---- client-cli/replay.c ---- */
    {"out of memory", "内存不足"},
    {"an undo with nothing to take back", "没有可以撤销的一步"},
    {"a timeout is \"lose\" or \"skip\"", "超时只能是“lose”或“skip”"},
    {"cannot write %s\n", "无法写入 %s\n"},
    {"record saved to %s (check it with: conclave replay %s)\n",
     "记录已保存到 %s（检查它：conclave replay %s）\n"},
    {"replay: %s: %s (line %d)\n", "replay：%s：%s（第 %d 行）\n"},
    {"replay: %s is not a game record of a known game\n", "replay：%s 不是已知游戏的对局记录\n"},
    {"game %s, %d seats, seed commitment %s\n", "游戏 %s，%d 个座位，种子承诺 %s\n"},
    {"replay: the seed does not match the commitment %s\n", "replay：种子与承诺 %s 不符\n"},
    {"replay: setup refused: %s\n", "replay：开局设置被拒绝：%s\n"},
    {"replay: step %zu refused: %s\n"
     "  %s\n",
     "replay：第 %zu 步被拒绝：%s\n"
     "  %s\n"},
    {"no seat", "没有座位"},
    {"all %zu actions accepted; the game has not ended\n",
     "全部 %zu 个行动均被接受；对局尚未结束\n"},
    {"all %zu actions accepted; result %s\n", "全部 %zu 个行动均被接受；结果 %s\n"},
    /* ---- client-cli/seats.c ---- */
    {"over", "已结束"},
    {"in the lobby", "在大厅中"},
    {"waiting", "等待中"},
    {"your turn", "轮到你"},
    {"unreachable", "无法连接"},
    {"gone", "已不存在"},
    {"%-21s %s  %-10s seat %d (%s)  %s", "%-21s %s  %-10s 座位 %d（%s）  %s"},
    {": %s to play", "：轮到 %s"},
    {"no saved seats: a seat is saved when you create or join a room\n",
     "没有已保存的座位：创建或加入房间时会保存座位\n"},
    {"%d of %zu seat%s: your turn\n", "%d/%zu 个座位%.0s轮到你\n"},
    {"no saved seat in that room", "那个房间里没有已保存的座位"},
    {"no saved seats to wait for", "没有可等待的已保存座位"},
    {"conclave: every game waited for is over or gone\n",
     "conclave：所等待的每局对局都已结束或不复存在\n"},
    /* ---- client-cli/wss.c ---- */
    {"the certificate of %s is not the one trusted for it: it was SHA256:%s and is now SHA256:%s. "
     "If the server's owner made a new one (conclaved prints it when it starts), trust it with --p"
     "in SHA256:%s%s%s",
     "%s 的证书不是它被信任的那一个：原来是 SHA256:%s，现在是 SHA256:%s。如果服务器的主人换了新证"
     "书（conclaved 启动时会显示），用 --pin SHA256:%s 信任它%s%s"},
    {", or take its line out of ", "，或者从下面这个文件中删去它那一行："},
    {"the certificate of %s expired on %s; its owner must renew it",
     "%s 的证书已于 %s 过期；它的主人必须更新证书"},
    {"the certificate of %s is valid only from %s; its owner must check the clock of the machine t"
     "hat made it",
     "%s 的证书从 %s 起才有效；它的主人必须检查生成证书的机器的时钟"},
    {"the certificate of %s is for another host name: refused (it is not the server you asked for,"
     " or its owner must make one for this name)",
     "%s 的证书属于另一个主机名：已拒绝（它不是你要连接的服务器，或者它的主人必须为这个名字生成证"
     "书）"},
    {"the certificate of %s is refused: %s", "%s 的证书被拒绝：%s"},
    {"the connection to %s failed while sending", "发送时与 %s 的连接失败"},
    {"%s sent a line longer than a client takes", "%s 发来的一行超出了客户端能接收的长度"},
    {"cannot connect to %s: %s", "无法连接到 %s：%s"},
    {"no answer", "没有应答"},
    {"%s closed the connection", "%s 关闭了连接"},
    {"conclave: no certificate authority can be read from %s\n",
     "conclave：无法从 %s 读取任何证书机构\n"},
    {"conclave: TLS cannot be set up\n", "conclave：无法建立 TLS\n"},
    {"conclave: a pin is SHA256: and 64 hex digits, not %s\n",
     "conclave：pin 的形式是 SHA256: 加 64 位十六进制数，而不是 %s\n"},
    {"cannot connect to %s", "无法连接到 %s"},
    {"the connection failed", "连接失败"},
    {"conclave: %s is new to this client: its certificate SHA256:%s is trusted from now on%s%s%s. "
     "Check it against the one its host shares.\n",
     "conclave：本客户端第一次连接 %s：从现在起信任它的证书 SHA256:%s%s%s%s。请与服务器主人分享的"
     "那一个核对。\n"},
    {" (kept in ", "（保存在 "},
    {" (it could not be kept: ", "（无法保存："},
};

const size_t cli_zh_cn_n = sizeof(cli_zh_cn) / sizeof(cli_zh_cn[0]);
