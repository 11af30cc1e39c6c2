# Rounds, seating and standings come with the tournaments issue.
