"""unorules: UNO rulebooks as data, and a generic interpreter that runs them."""
