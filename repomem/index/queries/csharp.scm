; C# tag query (repomem capture convention: see repomem/index/parser.py)
;
; Decisions:
; - Namespaces are `namespace` symbols, block or file-scoped; the parser extends a file-scoped
;   one (`namespace App.Core;`) to the end of the file, so the types after it are qualified
;   `App.Core.Widget`. Dotted namespace names are one name (`App.Core`).
; - Records are `class`es (`record struct` too), delegates are `type`s, enum members are
;   `constant`s, `const` fields are `constant`s, other fields and events are `field`s.
; - Constructors are `constructor`s; destructors, indexers and operators are not symbols.
; - Local functions are `function`s nested in their method.
; - Attributes are `decorator` references.
; - Predicates must sit inside a pattern's outer parentheses: `((pattern) (#eq? ...))`.

; ---------------------------------------------------------------------------------------------
; Namespaces

(namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace

(file_scoped_namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.namespace.open

; ---------------------------------------------------------------------------------------------
; Types

(class_declaration name: (identifier) @name) @definition.class

(record_declaration name: (identifier) @name) @definition.class

(struct_declaration name: (identifier) @name) @definition.struct

(interface_declaration name: (identifier) @name) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum

(delegate_declaration name: (identifier) @name) @definition.type

(enum_member_declaration name: (identifier) @name) @definition.constant

; ---------------------------------------------------------------------------------------------
; Members

(method_declaration name: (identifier) @name) @definition.method

(local_function_statement name: (identifier) @name) @definition.function

(constructor_declaration name: (identifier) @name) @definition.constructor

(property_declaration name: (identifier) @name) @definition.property

((field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))

((field_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name))) @definition.field
  (#not-match? @definition.field "^(\\[[^\\]]*\\]\\s*)*([a-z]+\\s+)*const\\s"))

(event_field_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name))) @definition.field

(event_declaration name: (identifier) @name) @definition.field

; ---------------------------------------------------------------------------------------------
; References

; calls: F(), obj.F(), obj?.F(), F<T>(), obj.F<T>()
(invocation_expression
  function: [
    (identifier) @name
    (generic_name (identifier) @name)
    (member_access_expression name: [(identifier) @name (generic_name (identifier) @name)])
    (conditional_access_expression
      (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]))
  ]) @reference.call

; A member read or set: order.Total, this.Name = x, Foo.Instance.Bar, order?.Customer. C# code is
; mostly properties, which no other pattern sees. A member that is called is a call: the parser
; keeps the other kind of a name captured twice (see `member` in repomem/index/parser.py).
[
  (member_access_expression name: [(identifier) @name (generic_name (identifier) @name)])
  (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)])
] @reference.member

; what a chain starts from when it is a type or a member (Config.Instance, Handler?.Invoke()),
; not a local or a parameter, which C# spells in lower case
((member_access_expression expression: (identifier) @name) @reference.member
  (#match? @name "^[A-Z]"))

((conditional_access_expression condition: (identifier) @name) @reference.member
  (#match? @name "^[A-Z]"))

; properties set in an object initializer (new Order { Total = 5 }) or, in upper case, by their
; own class (Total = 5; in a constructor)
(initializer_expression
  (assignment_expression left: (identifier) @name)) @reference.member

((assignment_expression left: (identifier) @name) @reference.member
  (#match? @name "^[A-Z]"))

; `new Foo(...)`, `new Foo<T>(...)`, `new Ns.Foo(...)`
(object_creation_expression
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.call

; base classes and implemented interfaces
(base_list
  [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.class

; types of parameters, variables, fields, properties and return values
(parameter
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
    (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
    (array_type type: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.type

(variable_declaration
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
    (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
    (array_type type: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.type

(property_declaration
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
    (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
    (array_type type: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.type

(method_declaration
  returns: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
    (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
    (array_type type: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.type

; types named in expressions and statements: typeof(T), (T)x, x as T, x is T t, default(T),
; catch (T e), foreach (T x in xs), new T[n], where U : T
[
  (typeof_expression
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (cast_expression
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (as_expression
    right: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (declaration_pattern
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (default_expression
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (catch_declaration
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (foreach_statement
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (type_parameter_constraint
    type: [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
      (array_type type: [(identifier) @name (generic_name (identifier) @name)])
    ])
  (array_creation_expression
    type: (array_type type: [(identifier) @name (generic_name (identifier) @name)]))
] @reference.type

; type arguments: List<Widget>, Dictionary<string, Widget>
(type_argument_list
  [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: (identifier) @name)
  ]) @reference.type

; attributes: [Serializable], [Route("x")]
(attribute
  name: [
    (identifier) @name
    (qualified_name name: (identifier) @name)
  ]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports: using System.Text; using static System.Math; using IO = System.IO;
; (the imported namespace or type is the directive's last named child)

(using_directive
  [(identifier) (qualified_name) (generic_name)] @name
  .) @import
