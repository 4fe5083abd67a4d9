"""Stage 3 of printing: drawing on a ReportLab canvas (the one PDF factory, fonts, mana symbols, card faces,
the proxy sheets and the calibration sheet)."""
