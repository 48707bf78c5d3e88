/*
 * EinPattern: the ein4j pattern language, one grammar for every operation.
 *
 *   rearrange / reduce / repeat   "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"       arrowPattern
 *   einsum, einops notation       "b h i d, b h j d -> b h i j"                  einsumPattern
 *   einsum, numpy notation        "bhid,bhjd->bhij", "...ij,...jk", "ii->i"      numpyEinsumPattern
 *   pack / unpack / parse_shape   "b * c", "b _ h w"                             singlePattern
 *
 * Lexical rules (decided on purpose, see the README):
 *   - Any run of spaces, tabs, carriage returns or newlines separates terms; whitespace is
 *     otherwise insignificant ("(h w)" and "( h  w )" are the same term).
 *   - Terms are separated by whitespace or parentheses: "...pre", "pre..." and "w*" lex as two
 *     tokens but read as one term, so the parser rejects them (einops does too).
 *   - A name is an ASCII letter followed by ASCII letters, digits and '_' ("h", "p1", "head_dim").
 *     Unicode letters are not names: a pattern is an identifier list, and ASCII keeps every
 *     pattern printable and comparable everywhere. A name may neither start with a digit or '_'
 *     nor end with '_' (einops' rule).
 *   - '_' alone is a token of its own: it means "skip this axis" and is accepted by parse_shape only.
 *   - An integer is a run of decimal digits: 1 is a unit axis, 2 and above an anonymous axis,
 *     0 is rejected by validation (an axis of length 0 cannot be written in a pattern).
 *   - '...' is the ellipsis; '.' and '..' are errors, not a shorter ellipsis.
 *   - Every other character is lexed as UNKNOWN so that the parser, not the lexer, reports it
 *     with its position.
 *
 * Semantic rules (duplicate names, nesting depth, which operation allows what) are checked after
 * parsing by dsl-parser's validator, where the position of the offending term is known; the grammar
 * is deliberately permissive (it accepts nested parentheses, for example) so those errors can say
 * precisely what is wrong instead of "unexpected token".
 */
grammar EinPattern;

// ---------------------------------------------------------------- entry rules

arrowPattern       : operand ARROW operand EOF ;
einsumPattern      : operand (COMMA operand)* ARROW operand EOF ;
numpyEinsumPattern : numpyOperand (COMMA numpyOperand)* (ARROW numpyOperand)? EOF ;
singlePattern      : operand EOF ;

// ---------------------------------------------------------------- operands and terms

operand : term* ;

term
    : NAME                                  # nameTerm
    | UNDERSCORE                            # skipTerm
    | INT                                   # numberTerm
    | ELLIPSIS                              # ellipsisTerm
    | STAR                                  # starTerm
    | LPAREN affine PLUS affine RPAREN      # windowTerm
    | LPAREN term* RPAREN                   # compositionTerm
    ;

// One index of a window: NAME, or INT*NAME (a stride before the output axis, a dilation before
// the kernel axis). "(2*h + kh)" reads input index 2*h + kh.
affine : (INT STAR)? NAME ;

// numpy notation: every letter of a NAME token is one axis ("bhid" is four axes).
numpyOperand : (NAME | ELLIPSIS)* ;

// ---------------------------------------------------------------- tokens

ARROW      : '->' ;
ELLIPSIS   : '...' ;
BAD_DOTS   : '.' '.'? ;
COMMA      : ',' ;
LPAREN     : '(' ;
RPAREN     : ')' ;
STAR       : '*' ;
PLUS       : '+' ;
NAME       : [a-zA-Z] [a-zA-Z0-9_]* ;
INT        : [0-9]+ ;
BAD_NAME   : ( '_' | [0-9]+ ) [a-zA-Z0-9_]+ ;
UNDERSCORE : '_' ;
WS         : [ \t\r\n]+ -> skip ;
UNKNOWN    : . ;
