module tiny_module "A module that adds one trigger"

on draw of 1 if card.color == red: score 1
