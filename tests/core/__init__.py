"""The plumbing every app uses: refusals and their wording, charts, spreadsheets, links and
QR codes, backups."""
