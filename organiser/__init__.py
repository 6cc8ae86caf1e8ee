"""The tournament organiser's app (``botifarra-club``): broker link, tournament store, Swiss pairing, live page. Imports the game core to fold table events; never Kivy."""
