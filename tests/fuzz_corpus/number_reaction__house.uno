rulebook t
extends classic
card 7 { on play: choose other player }
react to 7 with 7: cancel attack
