# A jump-in condition that reads the player: only a player holding more than three cards may jump in.
rulebook picky_jump "Classic with a jump-in for big hands only"

extends classic

jump in when card.kind == top.kind and card.color == top.color and me.hand.size > 3
