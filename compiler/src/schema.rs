//! JSON Schemas (draft-07, what yaml-language-server reads) for every kind of YAML file
//! rulesc reads: ruleset files, content packs and scenarios. Editors use them for
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
            "description": "A field type (`int`, `int(-3..4)`, `bool`, `dice`, a type name, `list<T>`, `map<K, V>`) or `{ type, default, doc }`.",
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
                "key": { "type": "string", "description": "`int`, a scale or an enum." },
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
        "scales": { "type": "object", "additionalProperties": { "$ref": "#/definitions/variants" } },
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
        "description": "Records checked against the record types of a ruleset: `rulesc check --ruleset <dir> <pack.yaml>`.",
        "type": "object",
        "properties": {
            "pack": {
                "type": "object",
                "properties": {
                    "name": { "$ref": "#/definitions/name" },
                    "ruleset": { "type": "string" },
                    "title": { "type": "string" },
                    "author": { "type": "string" },
                    "description": { "type": "string" }
                },
                "required": ["name"],
                "additionalProperties": false
            },
            "records": { "$ref": "#/definitions/records" }
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
        "description": "One resolution for `rulesc trace <ruleset> <scenario.yaml>`.",
        "type": "object",
        "properties": {
            "run": { "$ref": "#/definitions/name" },
            "args": { "type": "object", "propertyNames": { "pattern": NAME } },
            "dice": { "type": "array", "items": { "type": "integer", "minimum": 1 } },
            "decisions": { "type": "object", "additionalProperties": {
                "oneOf": [ { "type": "array" }, { "type": ["string", "integer", "boolean"] } ] } },
            "description": { "type": "string" }
        },
        "required": ["run"],
        "additionalProperties": false,
        "definitions": definitions()
    })
}

/// Every schema with its file name, pretty-printed with a final newline.
pub fn all() -> Vec<(&'static str, String)> {
    let text = |v: Value| serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    vec![
        ("ruleset.schema.json", text(ruleset())),
        ("pack.schema.json", text(pack())),
        ("scenario.schema.json", text(scenario())),
    ]
}
