"""Italian dates as written mid-sentence: "5 marzo 2026", not Django's "05 Marzo 2026".

``E`` is the month's alternative name (context "alt. month"), which the project's catalogue
gives in lower case (Italian writes months and weekdays in lower case); ``F`` stays the
stand-alone name (a heading such as "Marzo 2026"). The weekday is left out of a date and time.
"""

DATE_FORMAT = "j E Y"  # 5 marzo 2026
DATETIME_FORMAT = "j E Y, H:i"  # 5 marzo 2026, 14:30
MONTH_DAY_FORMAT = "j E"  # 5 marzo
