"""The written rule sets' words in each language: one table per rule set and language.

The English words are the preset's own ``words`` (scoring.presets; None: Hand
and Foot's, the defaults), and each language has the words its players use,
with whole labels per kind (the adjective follows the noun in pt, es and it),
the round and going out. Code, not data: a rule set's file and JSON keep their
English words; ``words.Words.of`` reads these. docs/house-rules.md names the sources.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_CANASTA_KINDS = {"clean": "natural", "dirty": "mixed"}
LOCAL: tuple[tuple[Mapping[str, Any] | None, Mapping[str, Mapping[str, Any]]], ...] = (
    (  # Hand and Foot (no words: the defaults)
        None,
        {
            "pt_BR": {
                "game": "Mão e Pé",
                "book": "canastra",
                "books": "canastras",
                "kinds": {"clean": "limpa", "dirty": "suja"},
                "labels": {
                    "clean": "Canastras limpas (vermelhas)",
                    "dirty": "Canastras sujas (pretas)",
                    "sevens": "Canastras de 7",
                    "wild": "Canastras de coringas",
                },
                "piles": ("mão", "pé"),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Mano y Pie",
                "book": "canasta",
                "books": "canastas",
                "kinds": {"clean": "limpia", "dirty": "sucia"},
                "labels": {
                    "clean": "Canastas limpias (rojas)",
                    "dirty": "Canastas sucias (negras)",
                    "sevens": "Canastas de 7",
                    "wild": "Canastas de comodines",
                },
                "piles": ("mano", "pie"),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Mano e Piede",
                "book": "canasta",
                "books": "canaste",
                "kinds": {"clean": "pulita", "dirty": "sporca"},
                "labels": {
                    "clean": "Canaste pulite (rosse)",
                    "dirty": "Canaste sporche (nere)",
                    "sevens": "Canaste di 7",
                    "wild": "Canaste di matte",
                },
                "piles": ("mano", "piede"),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
    (  # Canasta (classic)
        {
            "game": "Canasta",
            "book": "canasta",
            "books": "canastas",
            "kinds": _CANASTA_KINDS,
            "piles": ["hand"],
        },
        {
            "pt_BR": {
                "game": "Canastra",
                "book": "canastra",
                "books": "canastras",
                "kinds": {"clean": "limpa", "dirty": "suja"},
                "labels": {"clean": "Canastras limpas", "dirty": "Canastras sujas"},
                "piles": ("mão",),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Canasta",
                "book": "canasta",
                "books": "canastas",
                "kinds": {"clean": "limpia", "dirty": "sucia"},
                "labels": {"clean": "Canastas limpias", "dirty": "Canastas sucias"},
                "piles": ("mano",),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Canasta",
                "book": "canasta",
                "books": "canaste",
                "kinds": {"clean": "pulita", "dirty": "sporca"},
                "labels": {"clean": "Canaste pulite", "dirty": "Canaste sporche"},
                "piles": ("mano",),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
    (  # Samba
        {
            "game": "Samba",
            "book": "canasta",
            "books": "canastas",
            "kinds": {**_CANASTA_KINDS, "samba": "samba"},
            "piles": ["hand"],
        },
        {
            "pt_BR": {
                "game": "Samba",
                "book": "canastra",
                "books": "canastras",
                "kinds": {"clean": "limpa", "dirty": "suja", "samba": "samba"},
                "labels": {"clean": "Canastras limpas", "dirty": "Canastras sujas", "samba": "Sambas"},
                "piles": ("mão",),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Samba",
                "book": "canasta",
                "books": "canastas",
                "kinds": {"clean": "limpia", "dirty": "sucia", "samba": "samba"},
                "labels": {"clean": "Canastas limpias", "dirty": "Canastas sucias", "samba": "Sambas"},
                "piles": ("mano",),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Samba",
                "book": "canasta",
                "books": "canaste",
                "kinds": {"clean": "pulita", "dirty": "sporca", "samba": "samba"},
                "labels": {"clean": "Canaste pulite", "dirty": "Canaste sporche", "samba": "Samba"},
                "piles": ("mano",),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
    (  # Bolivia
        {
            "game": "Bolivia",
            "book": "canasta",
            "books": "canastas",
            "kinds": {**_CANASTA_KINDS, "escalera": "escalera", "bolivia": "bolivia"},
            "piles": ["hand"],
        },
        {
            "pt_BR": {
                "game": "Bolivia",
                "book": "canastra",
                "books": "canastras",
                "kinds": {"clean": "limpa", "dirty": "suja", "escalera": "escalera", "bolivia": "bolivia"},
                "labels": {
                    "clean": "Canastras limpas",
                    "dirty": "Canastras sujas",
                    "escalera": "Escaleras",
                    "bolivia": "Bolivias",
                },
                "piles": ("mão",),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Bolivia",
                "book": "canasta",
                "books": "canastas",
                "kinds": {"clean": "limpia", "dirty": "sucia", "escalera": "escalera", "bolivia": "bolivia"},
                "labels": {
                    "clean": "Canastas limpias",
                    "dirty": "Canastas sucias",
                    "escalera": "Escaleras",
                    "bolivia": "Bolivias",
                },
                "piles": ("mano",),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Bolivia",
                "book": "canasta",
                "books": "canaste",
                "kinds": {"clean": "pulita", "dirty": "sporca", "escalera": "escalera", "bolivia": "bolivia"},
                "labels": {
                    "clean": "Canaste pulite",
                    "dirty": "Canaste sporche",
                    "escalera": "Escaleras",
                    "bolivia": "Bolivias",
                },
                "piles": ("mano",),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
    (  # Buraco, as played in Brazil
        {
            "game": "Buraco",
            "book": "canasta",
            "books": "canastas",
            "kinds": {"clean": "clean", "dirty": "dirty", "ace_to_ace": "A to A"},
            "piles": ["hand", "morto"],
        },
        {
            "pt_BR": {
                "game": "Buraco",
                "book": "canastra",
                "books": "canastras",
                "kinds": {"clean": "limpa", "dirty": "suja", "ace_to_ace": "de ás a ás"},
                "labels": {
                    "clean": "Canastras limpas",
                    "dirty": "Canastras sujas",
                    "ace_to_ace": "Canastras de ás a ás",
                },
                "piles": ("mão", "morto"),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Buraco",
                "book": "canasta",
                "books": "canastas",
                "kinds": {"clean": "limpia", "dirty": "sucia", "ace_to_ace": "de as a as"},
                "labels": {
                    "clean": "Canastas limpias",
                    "dirty": "Canastas sucias",
                    "ace_to_ace": "Canastas de as a as",
                },
                "piles": ("mano", "muerto"),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Buraco",
                "book": "canasta",
                "books": "canaste",
                "kinds": {"clean": "pulita", "dirty": "sporca", "ace_to_ace": "da asso ad asso"},
                "labels": {
                    "clean": "Canaste pulite",
                    "dirty": "Canaste sporche",
                    "ace_to_ace": "Canaste da asso ad asso",
                },
                "piles": ("mano", "pozzetto"),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
    (  # Burraco, as the Italian federation (FIBUR) scores it
        {
            "game": "Burraco",
            "book": "burraco",
            "books": "burracos",
            "kinds": {"clean": "clean", "dirty": "dirty", "semi_clean": "semi-clean"},
            "piles": ["hand", "pozzetto"],
        },
        {
            "pt_BR": {
                "game": "Burraco",
                "book": "burraco",
                "books": "burracos",
                "kinds": {"clean": "limpo", "dirty": "sujo", "semi_clean": "semilimpo"},
                "labels": {
                    "clean": "Burracos limpos",
                    "dirty": "Burracos sujos",
                    "semi_clean": "Burracos semilimpos",
                },
                "piles": ("mão", "morto"),
                "round": "rodada",
                "going_out": "batida",
            },
            "es": {
                "game": "Burraco",
                "book": "burraco",
                "books": "burracos",
                "kinds": {"clean": "limpio", "dirty": "sucio", "semi_clean": "semilimpio"},
                "labels": {
                    "clean": "Burracos limpios",
                    "dirty": "Burracos sucios",
                    "semi_clean": "Burracos semilimpios",
                },
                "piles": ("mano", "muerto"),
                "round": "mano",
                "going_out": "cierre",
            },
            "it": {
                "game": "Burraco",
                "book": "burraco",
                "books": "burrachi",
                "kinds": {"clean": "pulito", "dirty": "sporco", "semi_clean": "semipulito"},
                "labels": {
                    "clean": "Burrachi puliti",
                    "dirty": "Burrachi sporchi",
                    "semi_clean": "Burrachi semipuliti",
                },
                "piles": ("mano", "pozzetto"),
                "round": "smazzata",
                "going_out": "chiusura",
            },
        },
    ),
)
