# Test rulebook: which plays and draws fire a trigger (docs/language.md section 8;
# tests/scenarios/language/trigger_scope.yaml). A draw two that answers an attack fires no `on play`;
# penalty draws fire no `on draw`; the turn's own play and draw do.
rulebook trigger_scope "Which plays and draws fire a trigger"

extends classic
include stacking
counter plays_seen
counter draws_seen

on play of draw_two: add 1 to plays_seen

on draw: add 1 to draws_seen

on turn_start if plays_seen > 9 or draws_seen > 9: draw 1
