"""academie serve: play any rule file in the browser."""
