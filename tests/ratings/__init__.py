"""The club's ratings: OpenSkill's figures for the rated matches, re-rating on corrections,
the ladders, a player's page and the standings' rating column."""
