; Swift tag query (repomem capture convention: see repomem/index/parser.py)
; Grammar: tree-sitter-swift 0.7 (alex-pinkus). class, struct, enum, actor and extension are all
; `class_declaration`, told apart by their `declaration_kind`.

; ---------------------------------------------------------------------------------------------
; Definitions

(class_declaration
  declaration_kind: ["class" "actor"]
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

; an extension's members belong to the extended type: `extension Cart: Shape { func f() }`
; defines `Cart.f` (a scope, as a Rust impl is); `extension Outer.Inner` names `Outer.Inner`
(class_declaration
  declaration_kind: "extension"
  name: (user_type) @name) @scope

(enum_entry
  name: (simple_identifier) @name) @definition.constant

(function_declaration
  name: (simple_identifier) @name) @definition.function

; operator functions are named by their operator: `static func + (lhs: V, rhs: V) -> V` is
; `V.+`, `prefix func -` is `-` (the return type is a `name:` too: it starts with no operator)
((function_declaration
  name: _ @name) @definition.function
  (#match? @name "^[-/=+!*%<>&|^~?.]"))

((protocol_function_declaration
  name: _ @name) @definition.method
  (#match? @name "^[-/=+!*%<>&|^~?.]"))

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.method

(init_declaration
  "init" @name) @definition.constructor

(subscript_declaration
  "subscript" @name) @definition.method

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(associatedtype_declaration
  name: (type_identifier) @name) @definition.type

; properties of a type (stored or computed, static or not), and a file's `let` and `var` (not
; the locals of a function)
[
  (class_body
    (property_declaration
      name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
  (enum_class_body
    (property_declaration
      name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
  (protocol_body
    (protocol_property_declaration
      name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
]

(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), obj.f(), Type(...) (an initializer call reads the same), a?.f()
(call_expression
  .
  [
    (simple_identifier) @name
    (navigation_expression
      suffix: (navigation_suffix suffix: (simple_identifier) @name))
  ]) @reference.call

; supertypes and conformances: class A: B, P
(inheritance_specifier
  inherits_from: (user_type (type_identifier) @name .)) @reference.class

(inheritance_specifier
  inherits_from: (user_type (type_identifier) @name . (type_arguments))) @reference.class

; type uses: a bare, qualified (last segment) or generic (head) type name
(user_type
  (type_identifier) @name .) @reference.type

(user_type
  (type_identifier) @name
  .
  (type_arguments)) @reference.type

; attributes: @objc, @MainActor, @Published (the decorators of Swift)
(attribute
  (user_type (type_identifier) @name .)) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports

; import Foundation; @testable import Alamofire; import struct Foo.Bar
(import_declaration
  (identifier) @name) @import
