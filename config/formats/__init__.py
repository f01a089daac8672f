"""Date formats of our own for the languages whose month names are lower case mid-sentence
(FORMAT_MODULE_PATH); every format not set here is Django's for the language."""
