# ZeroDivisionError: a player with no games has a win rate of 0.0.
# Proceeds correctly when it prints:
#   rate 0.0
wins, games = 0, 0
rate = wins / games
print("rate", rate)
