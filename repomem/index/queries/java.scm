; Java tag query (repomem capture convention: see repomem/index/parser.py)

; ---------------------------------------------------------------------------------------------
; Definitions

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_constant
  name: (identifier) @name) @definition.constant

(method_declaration
  name: (identifier) @name) @definition.method

; annotation elements: @interface Marker { String value() default ""; }
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.constructor

; record compact constructors: record R(int a) { R { ... } }
(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor

; constants: static final fields, interface fields. A field declaration with a single declarator
; is captured whole (its doc comment precedes it); with several, each declarator is captured.
((field_declaration
  (modifiers) @_modifiers
  type: (_)
  .
  (variable_declarator
    name: (identifier) @name)
  .) @definition.constant
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b"))

((field_declaration
  (modifiers) @_modifiers
  (variable_declarator)
  .
  (variable_declarator
    name: (identifier) @name) @definition.constant)
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b"))

((field_declaration
  (modifiers) @_modifiers
  (variable_declarator
    name: (identifier) @name) @definition.constant
  .
  (variable_declarator))
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b"))

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

(module_declaration
  name: [(identifier) (scoped_identifier)] @name) @definition.module

; ---------------------------------------------------------------------------------------------
; References

; method calls: f(), obj.f(), Type.<T>f()
(method_invocation
  name: (identifier) @name) @reference.call

; method references: this::add, String::valueOf (not Foo::new)
(method_reference
  "::"
  .
  (identifier) @name) @reference.call

; the class in a static call: Collections.sort(), but not CONSTANT.method()
((method_invocation
  object: (identifier) @name) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$"))

; instantiation: new Foo(), new pkg.Foo(), new Foo<>()
(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier (type_identifier) @name .)
    (generic_type . (type_identifier) @name)
    (generic_type . (scoped_type_identifier (type_identifier) @name .))
  ]) @reference.class

; superclass: class A extends B
(superclass
  [
    (type_identifier) @name
    (scoped_type_identifier (type_identifier) @name .)
    (generic_type . (type_identifier) @name)
    (generic_type . (scoped_type_identifier (type_identifier) @name .))
  ]) @reference.class

; implemented interfaces: class A implements I, J<T>
(super_interfaces
  (type_list
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])) @reference.implementation

; type uses: a bare, qualified (last segment) or generic (head) type name in a type position.
; Positions are listed by parent so that declared names (type parameters) and the package parts
; of a qualified name are not taken for type uses.
[
  (annotation_type_element_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (array_creation_expression
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (cast_expression
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (constant_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (enhanced_for_statement
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (field_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (formal_parameter
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (local_variable_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (method_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (resource
    type: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (array_type
    element: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (type_arguments
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (throws
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (type_bound
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (wildcard
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (instanceof_expression
    right: [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (spread_parameter
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
    ])
  (record_pattern_component
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
    ])
  (type_pattern
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
      (generic_type . (type_identifier) @name)
      (generic_type . (scoped_type_identifier (type_identifier) @name .))
    ])
  (annotated_type
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
    ])
  (extends_interfaces
    (type_list
      [
        (type_identifier) @name
        (scoped_type_identifier (type_identifier) @name .)
        (generic_type . (type_identifier) @name)
        (generic_type . (scoped_type_identifier (type_identifier) @name .))
      ]))
  (permits
    (type_list
      [
        (type_identifier) @name
        (scoped_type_identifier (type_identifier) @name .)
        (generic_type . (type_identifier) @name)
        (generic_type . (scoped_type_identifier (type_identifier) @name .))
      ]))
  (catch_type
    [
      (type_identifier) @name
      (scoped_type_identifier (type_identifier) @name .)
    ])
] @reference.type

; annotations: @Override, @Inject, @RequestMapping("/x") (the decorators of Java)
(marker_annotation
  name: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
  ]) @reference.decorator

(annotation
  name: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
  ]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports

; import a.b.C; import a.b.*; import static a.b.C.m;
(import_declaration
  [(scoped_identifier) (identifier)] @name) @import
