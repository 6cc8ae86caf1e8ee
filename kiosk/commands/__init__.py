"""One module per ``botifarra-kiosk`` subcommand (see kiosk.cli)."""
