// SPDX-License-Identifier: MIT
// The generic board (web/games/generic.js) in Simplified Chinese: each
// English phrase and its translation (our own). The board adds them to
// the page's phrases when it loads.

export const zhCNGeneric = {
  '(none)': '（无）',
  '1 item': '1 项',
  '{n} items': '{n} 项',
  ' yours: only you see this': ' 你的：只有你能看到',
  '(empty)': '（空）',
  'This game has no board drawing here yet: its state is shown as a tree. ':
    '这个游戏在这里还没有棋盘画面：它的状态以树形显示。',
  'Names in buttons can be selected to narrow the actions.': '可以选择按钮中的名字来筛选行动。',
  'The game is over.': '游戏已结束。',
  '{phase}: ': '{phase}：',
  '{phase}nobody to act.': '{phase}无人行动。',
  ', ': '、',
  '{phase}your turn.': '{phase}轮到你了。',
  '{phase}your turn, and {others}.': '{phase}轮到你和{others}。',
  '{phase}waiting for {others}.': '{phase}等待{others}。',
  'none': '无',
};
