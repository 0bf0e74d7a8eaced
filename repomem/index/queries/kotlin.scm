; Kotlin tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-kotlin 1.x (fwcd). A class, interface, enum class and `fun interface` are
; all `class_declaration`; the more specific patterns come first (a node's first match wins).

; ---------------------------------------------------------------------------------------------
; Definitions

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

(class_declaration
  (modifiers (class_modifier "enum"))
  name: (identifier) @name) @definition.enum

; class, data class, sealed class, abstract/open/inner/value class, annotation class
(class_declaration
  name: (identifier) @name) @definition.class

; `@Target(AnnotationTarget.FUNCTION)\nannotation class Route` at the top of a file: the grammar
; reads an annotation with arguments and what follows as an expression, `annotation class Route`
; as the infix call `annotation class(Route)`
((annotated_expression
  (infix_expression
    .
    (identifier) @_annotation
    .
    (identifier) @_class
    .
    (identifier) @name
    .) @definition.class)
  (#eq? @_annotation "annotation")
  (#eq? @_class "class"))

(object_declaration
  name: (identifier) @name) @definition.object

(companion_object
  name: (identifier) @name) @definition.object

; an unnamed companion object is called `Companion` (`Cart.Companion.empty()` from Java)
((companion_object
  !name) @definition.object
  (#set! "name" "Companion"))

(enum_entry
  (identifier) @name) @definition.constant

; an extension function: `fun String.slug()`, `fun <T> List<T>.top()`, `fun Foo?.orEmpty()`
; belongs to its receiver's type
(function_declaration
  [
    (user_type . (identifier) @receiver)
    (nullable_type (user_type . (identifier) @receiver))
  ]
  .
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

; a secondary constructor is named by its class, as Java's are (a JVM stack's `Cart.<init>`)
(class_declaration
  name: (identifier) @name
  [
    (class_body (secondary_constructor) @definition.constructor)
    (enum_class_body (secondary_constructor) @definition.constructor)
  ])

(type_alias
  type: (identifier) @name) @definition.type

; properties of a file, class or object (not the locals of a function): `const val` is a
; constant; an extension property (`val String.ext`) belongs to its receiver's type
(source_file
  (property_declaration
    (modifiers (property_modifier "const"))
    (variable_declaration (identifier) @name)) @definition.constant)

(class_body
  (property_declaration
    (modifiers (property_modifier "const"))
    (variable_declaration (identifier) @name)) @definition.constant)

(source_file
  (property_declaration
    [
      (user_type . (identifier) @receiver)
      (nullable_type (user_type . (identifier) @receiver))
    ]
    .
    (variable_declaration (identifier) @name)) @definition.property)

(class_body
  (property_declaration
    [
      (user_type . (identifier) @receiver)
      (nullable_type (user_type . (identifier) @receiver))
    ]
    .
    (variable_declaration (identifier) @name)) @definition.property)

(source_file
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.property)

(class_body
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.property)

; properties declared in the primary constructor: class Cart(val id: String)
(class_parameter
  ["val" "var"]
  .
  (identifier) @name) @definition.property

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), obj.f(), Foo() (a constructor call reads the same), a?.f()
(call_expression
  .
  [
    (identifier) @name
    (navigation_expression (identifier) @name .)
  ]) @reference.call

; function references: ::add, String::valueOf, Foo::class
(callable_reference
  (identifier) @name .) @reference.call

; supertypes: class A : B(), I
(delegation_specifier
  (constructor_invocation
    (user_type (identifier) @name .))) @reference.class

(delegation_specifier
  (constructor_invocation
    (user_type (identifier) @name . (type_arguments)))) @reference.class

(delegation_specifier
  (user_type (identifier) @name .)) @reference.implementation

(delegation_specifier
  (user_type (identifier) @name . (type_arguments))) @reference.implementation

; type uses: a bare, qualified (last segment) or generic (head) type name
(user_type
  (identifier) @name .) @reference.type

(user_type
  (identifier) @name
  .
  (type_arguments)) @reference.type

; annotations: @Throws(...), @JvmStatic (the decorators of Kotlin)
(annotation
  [
    (user_type (identifier) @name .)
    (constructor_invocation (user_type (identifier) @name .))
  ]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports

; import a.b.C; import a.b.*; import a.b.C as D
(import
  (qualified_identifier) @name) @import
