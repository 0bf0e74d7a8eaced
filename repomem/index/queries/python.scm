; Python tag query (repomem capture convention: see repomem/index/parser.py)

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; module-level constants and type aliases
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant))

(module
  (type_alias_statement
    left: (type (identifier) @name)) @definition.type)

; calls: f(), obj.f()
(call
  function: [
    (identifier) @name
    (attribute attribute: (identifier) @name)
  ]) @reference.call

; base classes, incl. generic ones (Generic[T])
(class_definition
  superclasses: (argument_list
    [
      (identifier) @name
      (attribute attribute: (identifier) @name)
      (subscript value: [(identifier) @name (attribute attribute: (identifier) @name)])
    ]) @reference.class)

; type annotations
(type (identifier) @name) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (attribute attribute: (identifier) @name)) @reference.type

; decorators
(decorator [
  (identifier) @name
  (attribute attribute: (identifier) @name)
  (call function: [(identifier) @name (attribute attribute: (identifier) @name)])
]) @reference.decorator

; imports
(import_statement name: [
  (dotted_name) @name
  (aliased_import name: (dotted_name) @name)
]) @import

(import_from_statement module_name: (_) @name) @import

(import_from_statement name: [
  (dotted_name (identifier) @name)
  (aliased_import name: (dotted_name (identifier) @name))
]) @reference.imported
