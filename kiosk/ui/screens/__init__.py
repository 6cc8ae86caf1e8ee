"""One ``name.py`` + ``name.kv`` per screen; each screen is thin and reads its view-model."""

SCREEN_MODULES = {
    "scoreboard": "ScoreboardScreen",
    "new_match": "NewMatchScreen",
    "bidding": "BiddingScreen",
    "score_camera": "ScoreCameraScreen",
    "score_cards": "ScoreCardsScreen",
    "score_points": "ScorePointsScreen",
    "confirm": "ConfirmScreen",
    "penalty": "PenaltyScreen",
    "misdeal": "MisdealScreen",
    "edit_hand": "EditHandScreen",
    "evidence": "EvidenceScreen",
    "match_won": "MatchWonScreen",
    "history": "HistoryScreen",
    "settings": "SettingsScreen",
    "diagnostics": "DiagnosticsScreen",
    "deal": "DealScreen",
    "learn_deck": "LearnDeckScreen",
    "tricks": "TricksScreen",
    "replay": "ReplayScreen",
    # a game without pairs (four each for himself, three, rector i vicari)
    "variant_board": "VariantBoardScreen",
    "variant_points": "VariantPointsScreen",
    "variant_cards": "VariantCardsScreen",
    "variant_confirm": "VariantConfirmScreen",
    "variant_won": "VariantWonScreen",
}
