"""Romanian dates as written mid-sentence: "5 martie 2026", not Django's "5 Martie 2026".

``E`` is the month's alternative name (context "alt. month"), which the project's catalogue
gives in lower case (Romanian writes months in lower case); ``F`` stays the stand-alone name.
"""

DATE_FORMAT = "j E Y"  # 5 martie 2026
DATETIME_FORMAT = "j E Y, H:i"  # 5 martie 2026, 14:30
MONTH_DAY_FORMAT = "j E"  # 5 martie
