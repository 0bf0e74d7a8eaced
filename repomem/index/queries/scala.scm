; Scala tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-scala 0.26 (Scala 2 and 3).

; ---------------------------------------------------------------------------------------------
; Definitions

; class, case class, abstract class
(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.object

(trait_definition
  name: (identifier) @name) @definition.trait

(enum_definition
  name: (identifier) @name) @definition.enum

(simple_enum_case
  name: (identifier) @name) @definition.constant

(full_enum_case
  name: (identifier) @name) @definition.constant

(function_definition
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type

(given_definition
  name: (identifier) @name) @definition.variable

; Scala 3 extension methods belong to the type they extend: `extension (s: String) def slug`
(extension_definition
  parameters: (parameters
    (parameter
      type: [
        (type_identifier) @name
        (generic_type type: (type_identifier) @name)
      ]))) @scope

; the vals and vars of a file, class, object or trait (not the locals of a function)
[
  (compilation_unit
    (val_definition pattern: (identifier) @name) @definition.property)
  (compilation_unit
    (var_definition pattern: (identifier) @name) @definition.property)
  (template_body
    (val_definition pattern: (identifier) @name) @definition.property)
  (template_body
    (var_definition pattern: (identifier) @name) @definition.property)
  (template_body
    (val_declaration name: (identifier) @name) @definition.property)
  (template_body
    (var_declaration name: (identifier) @name) @definition.property)
]

; ---------------------------------------------------------------------------------------------
; References

; calls: f(x), obj.f(x), f[T](x)
(call_expression
  function: [
    (identifier) @name
    (field_expression field: (identifier) @name)
    (generic_function function: [
      (identifier) @name
      (field_expression field: (identifier) @name)
    ])
  ]) @reference.call

; instantiation: new Foo(...), new Foo[T]
(instance_expression
  [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.class

; supertypes: extends A with B
(extends_clause
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (stable_type_identifier (type_identifier) @name .)
  ]) @reference.class

; type uses: a bare, qualified (last segment) or generic (head) type name
(type_identifier) @name @reference.type

; annotations: @tailrec, @deprecated("x")
(annotation
  name: [
    (type_identifier) @name
    (stable_type_identifier (type_identifier) @name .)
  ]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports

; import a.b.C; import a.b._; import a.b.{C, D}: the path (its parts are siblings: the parser
; joins them from the first), then each selected name
(import_declaration
  .
  path: (identifier) @name) @import

(import_declaration
  (namespace_selectors
    [
      (identifier) @name
      (arrow_renamed_identifier name: (identifier) @name)
      (as_renamed_identifier name: (identifier) @name)
    ])) @reference.imported
