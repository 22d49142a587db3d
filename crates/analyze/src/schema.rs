//! JSON Schemas (draft-07, what yaml-language-server reads) for every kind of YAML file
//! rulesc reads: ruleset files, content packs, scenarios and fight files; and of the
//! JSON `rulesc export`, `analyze`, `diff` and `simulate` write. Editors use them for
//! completion and early errors; `rulesc schema --out schemas` writes them, and a test
//! checks the committed copies are current and that every shipped YAML file validates.

use serde_json::{json, Value};

const NAME: &str = "^[A-Za-z_][A-Za-z0-9_]*$";

fn definitions() -> Value {
    json!({
        "name": { "type": "string", "pattern": NAME },
        "variants": {
            "description": "Levels (lowest first) or variants; `Name` or `Name: \"Display label\"`.",
            "type": "array",
            "minItems": 1,
            "items": {
                "oneOf": [
                    { "$ref": "#/definitions/name" },
                    { "type": "object", "minProperties": 1, "maxProperties": 1,
                      "propertyNames": { "pattern": NAME },
                      "additionalProperties": { "type": "string" } }
                ]
            }
        },
        "field": {
            "description": "A field type (`int`, `int(-3..4)`, `bool`, `dice`, a type name, `list<T>`, `map<K, V>`, `T?`) or `{ type, default, doc }`.",
            "oneOf": [
                { "type": "string" },
                { "type": "object",
                  "properties": { "type": { "type": "string" }, "default": {}, "doc": { "type": "string" } },
                  "required": ["type"], "additionalProperties": false }
            ]
        },
        "table": {
            "type": "object",
            "properties": {
                "die": { "type": "string", "pattern": "^[0-9]*d[0-9]+$", "description": "Rolled with this die; rows are faces or ranges." },
                "key": {
                    "description": "`int`, a scale or an enum; `[rows, columns]` for a table printed as a grid.",
                    "oneOf": [
                        { "type": "string" },
                        { "type": "array", "items": { "type": "string" }, "minItems": 2, "maxItems": 2 }
                    ]
                },
                "columns": { "type": "array", "description": "A grid's column keys, in order: each row lists one value per column." },
                "value": { "type": "string" },
                "rows": { "type": "object" },
                "default": {},
                "doc": { "type": "string" }
            },
            "additionalProperties": false
        },
        "track": {
            "type": "object",
            "properties": {
                "scale": { "$ref": "#/definitions/name" },
                "boxes": { "type": "array", "items": { "type": "object", "required": ["level"] } },
                "when_full": { "enum": ["escalate", "stop"] }
            },
            "required": ["scale", "boxes"],
            "additionalProperties": false
        },
        "records": {
            "description": "Records by type, then by name.",
            "type": "object",
            "additionalProperties": { "type": "object", "additionalProperties": { "type": ["object", "string"] } }
        }
    })
}

fn sections(with_manifest: bool) -> Value {
    let mut props = json!({
        "scales": { "type": "object", "additionalProperties": { "oneOf": [
            { "$ref": "#/definitions/variants" },
            { "type": "object", "properties": { "levels": { "$ref": "#/definitions/variants" }, "extensible": { "type": "boolean", "description": "Content packs may add levels above the top one." } }, "required": ["levels"], "additionalProperties": false }
        ] } },
        "enums": { "type": "object", "additionalProperties": { "$ref": "#/definitions/variants" } },
        "constants": { "type": "object", "additionalProperties": { "type": ["integer", "boolean", "string"] } },
        "types": { "type": "object", "additionalProperties": { "type": "object", "additionalProperties": { "$ref": "#/definitions/field" } } },
        "tracks": { "type": "object", "additionalProperties": { "$ref": "#/definitions/track" } },
        "tables": { "type": "object", "additionalProperties": { "$ref": "#/definitions/table" } },
        "records": { "$ref": "#/definitions/records" },
        "formulas": { "type": "object", "additionalProperties": { "type": "string" } }
    });
    if with_manifest {
        props["ruleset"] = json!({
            "type": "object",
            "properties": {
                "name": { "$ref": "#/definitions/name" },
                "title": { "type": "string" },
                "source": { "type": "string" },
                "description": { "type": "string" },
                "extends": { "type": "string", "description": "The base ruleset's folder, relative to this one." }
            },
            "required": ["name"],
            "additionalProperties": false
        });
        // Overrides take the same sections, tables and records merged key by key.
        props["override"] = json!({ "type": "object", "properties": sections(false)["properties"].clone(), "additionalProperties": false });
    }
    json!({ "properties": props })
}

/// The schema of a ruleset's YAML files (`ruleset.yaml` and the other data files).
pub fn ruleset() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc ruleset file",
        "description": "A YAML file of a rulesc ruleset: any of these sections. See docs/language.md.",
        "type": "object",
        "properties": sections(true)["properties"].clone(),
        "additionalProperties": false,
        "definitions": definitions()
    })
}

/// The schema of a homebrew content pack.
pub fn pack() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc content pack",
        "description": "Records checked against the record types of a ruleset, and additions to its enums, extensible scales and tables: `rulesc check --ruleset <dir> <pack.yaml>`.",
        "type": "object",
        "properties": {
            "pack": {
                "type": "object",
                "properties": {
                    "name": { "$ref": "#/definitions/name" },
                    "ruleset": { "oneOf": [ { "type": "string" }, { "type": "array", "items": { "type": "string" } } ], "description": "The ruleset the pack is for (it applies to its variants too), or a list of them." },
                    "requires": { "oneOf": [ { "type": "string" }, { "type": "array", "items": { "type": "string" } } ], "description": "Packs checked first (paths relative to this pack, inside the project folder), whose records this pack's records may name and `_copy`." },
                    "title": { "type": "string" },
                    "author": { "type": "string" },
                    "description": { "type": "string" }
                },
                "required": ["name"],
                "additionalProperties": false
            },
            "records": { "$ref": "#/definitions/records" },
            "enums": { "type": "object", "additionalProperties": { "$ref": "#/definitions/variants" }, "description": "Variants added to the ruleset's enums (by name), or new enums." },
            "scales": { "type": "object", "additionalProperties": { "$ref": "#/definitions/variants" }, "description": "Levels added above the top of the ruleset's extensible scales, or new scales." },
            "tables": { "type": "object", "additionalProperties": { "type": "object" }, "description": "For a table of the ruleset, `rows:` added and `_mod: { replace, remove }`; for a new name, a new table." }
        },
        "required": ["pack"],
        "additionalProperties": false,
        "definitions": definitions()
    })
}

/// The schema of a scenario for `rulesc trace`.
pub fn scenario() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc scenario",
        "description": "One resolution for `rulesc trace <ruleset> <scenario.yaml>`, and a test for `rulesc test`.",
        "type": "object",
        "properties": {
            "run": { "$ref": "#/definitions/name" },
            "args": { "type": "object", "propertyNames": { "pattern": NAME } },
            "dice": { "type": "array", "items": { "type": "integer", "minimum": 1 } },
            "decisions": { "type": "object", "additionalProperties": {
                "oneOf": [ { "type": "array" }, { "type": ["string", "integer", "boolean"] } ] } },
            "description": { "type": "string" },
            "ruleset": { "type": "string", "description": "The ruleset folder `rulesc test` runs this scenario against, relative to this file." },
            "packs": { "type": "array", "items": { "type": "string" }, "description": "Content packs (relative to this file) whose records the scenario names, for `rulesc test`." },
            "fight": {
                "type": "object",
                "description": "The fight a procedure that takes fighters runs in: `sides:` as in a fight file; its `fighter` and `side` arguments are named.",
                "properties": { "sides": { "type": "object", "minProperties": 2 } },
                "additionalProperties": false
            },
            "expect": {
                "type": "object",
                "description": "What the run must give, held by `rulesc test`.",
                "properties": {
                    "result": { "description": "The result: a value, an outcome's tag, or `{ Tag: { field: value } }`." },
                    "state": { "type": "object", "description": "Arguments after the run, by parameter name: the fields named only.", "propertyNames": { "pattern": NAME } },
                    "odds": { "type": "object", "description": "Exact odds by outcome (a tag, or a result as the trace shows it): a fraction `3/10`, a decimal or percentage `0.3`, `30%`, or one with a tolerance `32% ± 1%`.", "additionalProperties": { "type": ["string", "number"] } }
                },
                "additionalProperties": false
            }
        },
        "required": ["run"],
        "additionalProperties": false,
        "definitions": definitions()
    })
}

/// The schema of a fight file for `rulesc simulate` ([`crate::simulate::read`]).
pub fn fight() -> Value {
    let names = json!({ "type": "array", "items": { "$ref": "#/definitions/name" } });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc fight",
        "description": "A whole fight for `rulesc simulate <ruleset> <fight.yaml>`: two or more sides of combatants, how decisions are answered, and outcome groups to report.",
        "type": "object",
        "properties": {
            "title": { "type": "string" },
            "description": { "type": "string" },
            "rounds": { "type": "integer", "minimum": 1, "description": "The round limit (default 100): a fight still going then is undecided." },
            "sides": {
                "type": "object",
                "minProperties": 2,
                "propertyNames": { "pattern": NAME },
                "additionalProperties": {
                    "type": "object",
                    "description": "The side's combatants: a name, then a record's name or the record's fields.",
                    "propertyNames": { "pattern": NAME },
                    "additionalProperties": { "type": ["string", "object"] }
                }
            },
            "decisions": {
                "type": "object",
                "description": "`default:` then per decision name: first, last, random, a level or variant name, yes or no; in a scripted fight (`dice:`), a list of answers taken in order (option names, or indices for a decision among a list).",
                "additionalProperties": { "type": ["string", "boolean", "array"] }
            },
            "ruleset": { "type": "string", "description": "The ruleset `rulesc test` runs the fight against (a folder, relative to this file)." },
            "dice": { "type": "array", "items": { "type": "integer", "minimum": 1 }, "description": "A scripted fight: every face it rolls, in order (initiative included)." },
            "expect": {
                "type": "object",
                "description": "What `rulesc test` holds the fight to: simulated rates within a tolerance (`runs`, `seed`, `tolerance`, `wins`, `report`), or for a scripted fight its ending and state (`winner`, `rounds`, `turns`, `out`, `state`).",
                "properties": {
                    "runs": { "type": "integer", "minimum": 1 },
                    "seed": { "type": "integer", "minimum": 0 },
                    "tolerance": { "type": ["string", "number"] },
                    "wins": { "type": "object", "additionalProperties": { "type": ["string", "number"] } },
                    "report": { "type": "object", "additionalProperties": { "type": ["string", "number"] } },
                    "winner": { "type": "string" },
                    "rounds": { "type": "integer", "minimum": 0 },
                    "turns": names,
                    "out": names,
                    "state": { "type": "object", "additionalProperties": { "type": "object" } }
                },
                "additionalProperties": false
            },
            "report": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "winner": { "type": "string", "description": "A side, `draw` or `undecided`." },
                        "standing": names,
                        "out": names,
                        "rounds": { "type": ["integer", "string"], "description": "`3`, `\"2..4\"`, `\"..3\"`, `\"5..\"`." }
                    },
                    "additionalProperties": false
                }
            }
        },
        "required": ["sides"],
        "additionalProperties": false,
        "definitions": { "name": { "type": "string", "pattern": NAME } }
    })
}

/// The schema of `rulesc export`'s output: a checked ruleset's data, merged
/// ([`crate::export`]).
pub fn export() -> Value {
    let named = |props: Value, required: Value| json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false });
    let by_name = |item: Value| json!({ "type": "object", "propertyNames": { "pattern": NAME }, "additionalProperties": item });
    let at = json!({ "type": "string", "description": "The file and line it is defined on: `kingsmark/data.yaml:117`." });
    let ty = json!({ "type": "string", "description": "A type as the ruleset writes it: `int`, `list<HitLocation>`, `WoundBoxes`." });
    let typed = named(
        json!({ "name": { "$ref": "#/definitions/name" }, "type": ty }),
        json!(["name", "type"]),
    );
    let choice = named(
        json!({
            "values": { "type": "array", "items": named(
                json!({ "name": { "$ref": "#/definitions/name" }, "label": { "type": "string" } }),
                json!(["name", "label"])) },
            "defined_at": at
        }),
        json!(["values", "defined_at"]),
    );
    let function = named(
        json!({ "params": { "type": "array", "items": typed }, "returns": ty, "defined_at": at }),
        json!(["params", "defined_at"]),
    );
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc export",
        "description": "A checked ruleset's data after `extends`, `override` and content packs (`rulesc export <ruleset> --format json`). Values read as in YAML: scale and enum values by name, dice in dice notation, tracks as their filled boxes, maps as objects keyed by name, records as objects of their fields.",
        "type": "object",
        "properties": {
            "format": { "const": "rulesc-export" },
            "version": { "const": crate::export::FORMAT_VERSION },
            "ruleset": named(json!({ "name": { "$ref": "#/definitions/name" }, "title": { "type": "string" } }), json!(["name", "title"])),
            "scales": by_name(choice.clone()),
            "enums": by_name(choice),
            "types": by_name(named(json!({
                "fields": { "type": "array", "items": named(json!({
                    "name": { "$ref": "#/definitions/name" },
                    "type": ty,
                    "range": { "type": "array", "items": { "type": "integer" }, "minItems": 2, "maxItems": 2 },
                    "default": {},
                    "doc": { "type": "string" }
                }), json!(["name", "type"])) },
                "defined_at": at
            }), json!(["fields", "defined_at"]))),
            "tracks": by_name(named(json!({
                "scale": { "$ref": "#/definitions/name" },
                "boxes": { "type": "array", "items": {
                    "type": "object",
                    "description": "The box's number, its level, and its attributes (`pain`...) by name.",
                    "properties": { "box": { "type": "integer", "minimum": 1 }, "level": { "$ref": "#/definitions/name" } },
                    "required": ["box", "level"],
                    "additionalProperties": { "type": "integer" } } },
                "when_full": { "enum": ["escalate", "stop"] },
                "defined_at": at
            }), json!(["scale", "boxes", "when_full", "defined_at"]))),
            "tables": by_name({
                let mut t = named(json!({
                    "die": { "type": "string", "description": "Rolled with this die; rows are faces." },
                    "key": { "type": "string", "description": "`int`, or the scale or enum the rows are keyed by." },
                    "column_key": { "type": "string", "description": "A grid's second key: `int`, or the scale or enum the columns are keyed by." },
                    "columns": { "type": "array", "items": {
                        "type": "object",
                        "description": "A grid's columns in order, keyed as rows are; each row's `value` is a list with one value per column.",
                        "properties": { "from": { "type": "integer" }, "to": { "type": "integer" }, "key": { "$ref": "#/definitions/name" } },
                        "additionalProperties": false } },
                    "value": ty,
                    "rows": { "type": "array", "items": {
                        "type": "object",
                        "description": "`from`/`to` (inclusive; an open end left out) for dice and numbers, `key` for a scale or enum.",
                        "properties": { "from": { "type": "integer" }, "to": { "type": "integer" }, "key": { "$ref": "#/definitions/name" }, "value": {} },
                        "required": ["value"],
                        "additionalProperties": false } },
                    "default": {},
                    "defined_at": at
                }), json!(["value", "rows", "defined_at"]));
                t["oneOf"] = json!([{ "required": ["die"] }, { "required": ["key"] }]);
                t
            }),
            "constants": by_name(named(json!({ "type": ty, "value": {}, "defined_at": at }), json!(["type", "value", "defined_at"]))),
            "records": by_name(by_name(json!({ "type": "object", "description": "The record's fields by name." }))),
            "outcomes": by_name(named(json!({
                "tags": { "type": "array", "items": named(json!({
                    "name": { "$ref": "#/definitions/name" },
                    "label": { "type": "string", "description": "What traces print: the tag's display label, or its name." },
                    "fields": { "type": "array", "items": typed }
                }), json!(["name", "fields"])) },
                "defined_at": at
            }), json!(["tags", "defined_at"]))),
            "formulas": by_name(function.clone()),
            "procedures": by_name(function)
        },
        "required": ["format", "version", "ruleset", "scales", "enums", "types", "tracks", "tables", "constants", "records", "outcomes", "formulas", "procedures"],
        "additionalProperties": false,
        "definitions": { "name": { "type": "string", "pattern": NAME } }
    })
}

/// Every schema with its file name, pretty-printed with a final newline.
pub fn all() -> Vec<(&'static str, String)> {
    let text =
        |v: Value| serde_json::to_string_pretty(&v).expect("a serde_json value prints") + "\n";
    vec![
        ("ruleset.schema.json", text(ruleset())),
        ("pack.schema.json", text(pack())),
        ("scenario.schema.json", text(scenario())),
        ("fight.schema.json", text(fight())),
        ("export.schema.json", text(export())),
        ("analyze.schema.json", text(analyze())),
        ("diff.schema.json", text(diff())),
        ("diff-fight.schema.json", text(diff_fight())),
        ("simulate.schema.json", text(simulate())),
    ]
}

/// What `rulesc diff <base> <variant> <fight.yaml> --format json` prints: the
/// definitions that differ, and each outcome of the fight simulated under both.
pub fn diff_fight() -> Value {
    let text = json!({ "type": "string" });
    let count = json!({ "type": "integer", "minimum": 0 });
    let unit =
        |what: &str| json!({ "type": "number", "minimum": 0, "maximum": 1, "description": what });
    let share = json!({
        "type": "object",
        "properties": {
            "runs": count,
            "share": unit("runs / all runs."),
            "low": unit("The 95% interval's lower end (Wilson)."),
            "high": unit("The 95% interval's upper end (Wilson).")
        },
        "required": ["runs", "share", "low", "high"],
        "additionalProperties": false
    });
    let signed =
        |what: &str| json!({ "type": "number", "minimum": -1, "maximum": 1, "description": what });
    let outcome = json!({
        "type": "object",
        "properties": {
            "outcome": { "type": "string", "description": "`<side> wins`, `draw`, `undecided`, `stopped by a rule error`, or a report group's name." },
            "base": share,
            "variant": share,
            "change": {
                "type": "object",
                "properties": {
                    "share": signed("The variant's share minus the base's."),
                    "low": signed("The 95% interval's lower end (Newcombe's hybrid score)."),
                    "high": signed("The 95% interval's upper end.")
                },
                "required": ["share", "low", "high"],
                "additionalProperties": false
            }
        },
        "required": ["outcome", "base", "variant", "change"],
        "additionalProperties": false
    });
    let mean = json!({ "type": ["number", "null"] });
    let mut definitions = diff()["properties"]["definitions"].clone();
    definitions["description"] = "The definitions that differ, as for a scenario.".into();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc diff on a fight file",
        "description": "What a variant changes in a whole fight (`rulesc diff <base> <variant> <fight.yaml> --format json`): the definitions that differ, and each outcome simulated under both rulesets on the same runs.",
        "type": "object",
        "properties": {
            "format": { "const": "rulesc-diff-fight" },
            "version": { "const": crate::analyze::report::FORMAT_VERSION },
            "base": text,
            "variant": text,
            "fight": text,
            "simulated": { "const": true, "description": "The shares are simulated, not exact." },
            "runs": count,
            "asked": count,
            "seed": count,
            "definitions": definitions,
            "outcomes": { "type": "array", "items": outcome },
            "mean_rounds": {
                "type": "object",
                "properties": { "base": mean, "variant": mean },
                "required": ["base", "variant"],
                "additionalProperties": false
            }
        },
        "required": ["format", "version", "base", "variant", "fight", "simulated", "runs", "asked", "seed", "definitions", "outcomes", "mean_rounds"],
        "additionalProperties": false
    })
}

/// What `rulesc simulate --format json` prints: the report of many runs, or with
/// `--trace K` one run.
pub fn simulate() -> Value {
    let text = json!({ "type": "string" });
    let count = json!({ "type": "integer", "minimum": 0 });
    let share = |name: Option<&str>| {
        let mut props = json!({
            "runs": { "type": "integer", "minimum": 0, "description": "How many runs." },
            "share": { "type": "number", "minimum": 0, "maximum": 1, "description": "runs / all runs." },
            "low": { "type": "number", "minimum": 0, "maximum": 1, "description": "The 95% interval's lower end (Wilson)." },
            "high": { "type": "number", "minimum": 0, "maximum": 1, "description": "The 95% interval's upper end (Wilson)." }
        });
        let mut required = vec!["runs", "share", "low", "high"];
        if let Some(n) = name {
            props[n] = json!({ "type": "string" });
            required.push(n);
        }
        json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
    };
    let report = json!({
        "type": "object",
        "description": "`rulesc simulate --format json`: the fight run `runs` times from `seed`.",
        "properties": {
            "fight": text,
            "ruleset": text,
            "runs": { "type": "integer", "minimum": 0, "description": "Runs made: `asked`, or fewer when --max-seconds stopped the simulation (W0105)." },
            "asked": { "type": "integer", "minimum": 1, "description": "Runs asked for (-n)." },
            "seed": count,
            "max_rounds": count,
            "wins": { "type": "array", "items": share(Some("side")), "description": "One per side, in the fight file's order." },
            "draw": share(None),
            "undecided": share(None),
            "rule_errors": { "type": "array", "items": share(Some("error")), "description": "Runs a rule error stopped, by where and what." },
            "rounds": {
                "type": "object",
                "properties": {
                    "stats": {
                        "oneOf": [
                            { "type": "null" },
                            {
                                "type": "object",
                                "properties": { "mean": { "type": "number" }, "median": count, "p90": count, "most": count },
                                "required": ["mean", "median", "p90", "most"],
                                "additionalProperties": false
                            }
                        ]
                    },
                    "counts": { "type": "array", "items": {
                        "type": "object",
                        "properties": { "rounds": count, "runs": count },
                        "required": ["rounds", "runs"],
                        "additionalProperties": false
                    } }
                },
                "required": ["stats", "counts"],
                "additionalProperties": false
            },
            "report": { "type": "array", "items": share(Some("group")), "description": "The fight file's report groups, in order." }
        },
        "required": ["fight", "ruleset", "runs", "asked", "seed", "max_rounds", "wins", "draw", "undecided", "rule_errors", "rounds", "report"],
        "additionalProperties": false
    });
    let run = json!({
        "type": "object",
        "description": "`rulesc simulate --trace K --format json`: run `K` of `seed`.",
        "properties": {
            "fight": text,
            "ruleset": text,
            "seed": count,
            "run": count,
            "trace": { "type": "array", "items": text, "description": "The trace's lines, as the text prints them." },
            "end": { "enum": ["won", "draw", "undecided", "rule_error"] },
            "winner": { "type": ["string", "null"], "description": "The side that won, when `end` is `won`." },
            "error": { "type": ["string", "null"], "description": "Where and what, when `end` is `rule_error`." },
            "rounds": count
        },
        "required": ["fight", "ruleset", "seed", "run", "trace", "end", "winner", "error", "rounds"],
        "additionalProperties": false
    });
    let sweep = json!({
        "type": "object",
        "description": "`rulesc simulate --sweep PATH=VALUES --format json`: the fight at every point of the sweeps.",
        "properties": {
            "fight": text,
            "ruleset": text,
            "seed": count,
            "sweeps": { "type": "array", "items": text, "description": "The sweeps' paths (`Vera.armor`), in order." },
            "points": { "type": "array", "items": {
                "type": "object",
                "properties": {
                    "settings": { "type": "object", "additionalProperties": text, "description": "Each sweep's path and its value here, as text." },
                    "report": report
                },
                "required": ["settings", "report"],
                "additionalProperties": false
            } }
        },
        "required": ["fight", "ruleset", "seed", "sweeps", "points"],
        "additionalProperties": false
    });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc simulate --format json",
        "oneOf": [report, run, sweep]
    })
}

/// An exact probability as text.
fn fraction() -> Value {
    json!({ "type": "string", "pattern": "^-?[0-9]+/[0-9]+$", "description": "An exact fraction, `numerator/denominator` in lowest terms: `27/216` reads `1/8`." })
}

/// What `rulesc analyze --format json` prints.
pub fn analyze() -> Value {
    let text = json!({ "type": "string" });
    let number = json!({ "type": "number" });
    let group = json!({
        "type": "object",
        "properties": {
            "group": { "type": "string", "description": "The group (with `by`: a value of the field, or a tag without it; without: one outcome as traces show it)." },
            "value": { "description": "What the group stands for as a value: without `by` the result (a number, a truth, a name, a record as an object, an outcome's tag by its name or `{ \"Tag\": { field: value } }`), with `by` the value at the path's end or the tag that lacks it; null for a rule error or the unexplored rest. Of a fight file: how the fights end (`{ \"end\": \"won\", \"winner\": side }`, `draw`, `undecided`, or `rule_error` with its `error`), then `by` `rounds` (a number) and `by` `report` (a group's name)." },
            "probability": fraction(),
            "percent": number,
            "at_least": fraction(),
            "at_most": fraction(),
            "interval": { "type": "array", "items": number, "minItems": 2, "maxItems": 2, "description": "With `--samples`: the 95% Wilson interval, from 0 to 1." }
        },
        "required": ["group", "probability", "percent"],
        "additionalProperties": false
    });
    let result = json!({
        "type": "object",
        "properties": {
            "scenario": text,
            "case": { "type": "object", "additionalProperties": { "type": "string" }, "description": "What this case sets: sweep paths and decision names, with their values." },
            "procedure": text,
            "by": { "type": ["string", "null"] },
            "work": text,
            "groups": { "type": "array", "items": group },
            "unexplored": fraction(),
            "unexplored_percent": number,
            "stopped": { "type": ["string", "null"], "description": "The warning code of the limit that stopped the analysis (W0101-W0104)." },
            "mean": fraction(),
            "mean_value": number,
            "standard_deviation": number,
            "goal": fraction(),
            "goal_percent": number
        },
        "required": ["scenario", "case", "procedure", "by", "work", "groups", "unexplored", "unexplored_percent", "stopped"],
        "additionalProperties": false
    });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc analyze",
        "description": "The odds of scenarios' outcomes (`rulesc analyze ... --format json`): one result per scenario, sweep point and answer to the decisions compared.",
        "type": "object",
        "properties": {
            "format": { "const": "rulesc-analyze" },
            "version": { "const": crate::analyze::report::FORMAT_VERSION },
            "results": { "type": "array", "items": result },
            "best": { "type": "string", "description": "The `--best` goal, as given." }
        },
        "required": ["format", "version", "results"],
        "additionalProperties": false
    })
}

/// What `rulesc diff --format json` prints.
pub fn diff() -> Value {
    let text = json!({ "type": "string" });
    let number = json!({ "type": "number" });
    let definition = json!({
        "type": "object",
        "properties": {
            "kind": text,
            "name": text,
            "change": { "enum": ["added", "removed", "changed"] },
            "defined_at": text,
            "removed": { "type": "array", "items": text },
            "added": { "type": "array", "items": {
                "type": "object",
                "properties": { "line": text, "at": text },
                "required": ["line", "at"],
                "additionalProperties": false
            } }
        },
        "required": ["kind", "name", "change", "defined_at", "removed", "added"],
        "additionalProperties": false
    });
    let group = json!({
        "type": "object",
        "properties": {
            "group": text,
            "base": fraction(),
            "variant": fraction(),
            "base_percent": number,
            "variant_percent": number,
            "change_points": { "type": "number", "description": "The variant's chance minus the base's, in percentage points." }
        },
        "required": ["group", "base", "variant", "base_percent", "variant_percent", "change_points"],
        "additionalProperties": false
    });
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "rulesc diff",
        "description": "What a variant changes (`rulesc diff <base> <variant> <scenario> --format json`): the definitions that differ, and the odds of each group under both rulesets.",
        "type": "object",
        "properties": {
            "format": { "const": "rulesc-diff" },
            "version": { "const": crate::analyze::report::FORMAT_VERSION },
            "base": text,
            "variant": text,
            "scenario": text,
            "procedure": text,
            "by": { "type": ["string", "null"] },
            "definitions": { "type": "array", "items": definition },
            "groups": { "type": "array", "items": group }
        },
        "required": ["format", "version", "base", "variant", "scenario", "procedure", "by", "definitions", "groups"],
        "additionalProperties": false
    })
}
