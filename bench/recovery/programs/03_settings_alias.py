# KeyError: the folder is stored as 'homedir'; a correct repair uses it.
# Proceeds correctly when it prints:
#   home /home/ana
settings = {"homedir": "/home/ana", "shell": "bash"}
home = settings["home_dir"]
print("home", home)
