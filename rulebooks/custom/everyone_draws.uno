# Tutorial card 1 (seeds): "everyone but me draws one". Lay it over any rulebook with a
# wild_customizable card: `unorules simulate official --with rulebooks/custom/everyone_draws.uno`.
module everyone_draws "Wild Customizable: name a color, and everyone else draws one card"

for official

card wild_customizable {
  on play:
    choose color
    each other draw 1
}
