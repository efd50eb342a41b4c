package com.cambio.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A small, strict JSON reader and writer (RFC 8259), so the client needs no runtime dependency.
 * Objects become {@link LinkedHashMap} (key order kept), arrays {@link ArrayList}, numbers
 * {@link BigDecimal} (never a double: no amount is ever rounded), strings, {@link Boolean} and
 * {@code null}. Not part of the public API.
 */
public final class Json {
  private Json() {}

  /** The one JSON value {@code text} holds; a {@link JsonException} if it is not exactly one. */
  public static Object parse(String text) {
    Reader reader = new Reader(text);
    reader.skipWhitespace();
    Object value = reader.value(0);
    reader.skipWhitespace();
    if (reader.pos != text.length()) throw reader.error("unexpected data after the JSON value");
    return value;
  }

  /** Compact JSON, escaped as JavaScript's JSON.stringify does (what Cambio sends). */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  @SuppressWarnings("unchecked")
  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      writeString(s, out);
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof BigDecimal d) {
      out.append(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
    } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      out.append(value);
    } else if (value instanceof java.math.BigInteger i) {
      out.append(i);
    } else if (value instanceof Map<?, ?> map) {
      writeElements('{', map.entrySet(), '}', out, entry -> {
        writeString(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      });
    } else if (value instanceof Iterable<?> list) {
      writeElements('[', list, ']', out, item -> write(item, out));
    } else {
      // Doubles and floats are refused on purpose: money is a decimal string or a BigDecimal.
      throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
    }
  }

  /** {@code items} between {@code open} and {@code close}, separated by commas, each by {@code writer}. */
  private static <T> void writeElements(char open, Iterable<T> items, char close, StringBuilder out, Consumer<T> writer) {
    out.append(open);
    boolean first = true;
    for (T item : items) {
      if (!first) out.append(',');
      first = false;
      writer.accept(item);
    }
    out.append(close);
  }

  private static void writeString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          boolean loneSurrogate =
              Character.isHighSurrogate(c) ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                  : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
          if (c < 0x20 || loneSurrogate) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  private static final class Reader {
    private static final int MAX_DEPTH = 512;
    final String text;
    int pos;

    Reader(String text) {
      this.text = text;
    }

    JsonException error(String what) {
      return new JsonException("Invalid JSON at offset " + pos + ": " + what);
    }

    void skipWhitespace() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
        else break;
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) throw error("nested too deeply");
      if (pos >= text.length()) throw error("unexpected end");
      char c = text.charAt(pos);
      switch (c) {
        case '{':
          return object(depth);
        case '[':
          return array(depth);
        case '"':
          return string();
        case 't':
          literal("true");
          return Boolean.TRUE;
        case 'f':
          literal("false");
          return Boolean.FALSE;
        case 'n':
          literal("null");
          return null;
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw error("unexpected character '" + c + "'");
      }
    }

    void literal(String word) {
      if (!text.startsWith(word, pos)) throw error("expected " + word);
      pos += word.length();
    }

    Map<String, Object> object(int depth) {
      Map<String, Object> map = new LinkedHashMap<>();
      elements('}', () -> {
        if (peek() != '"') throw error("expected a string key");
        String key = string();
        if (map.containsKey(key)) throw error("duplicate key \"" + key + "\"");
        skipWhitespace();
        if (peek() != ':') throw error("expected ':'");
        pos++;
        skipWhitespace();
        map.put(key, value(depth + 1));
      });
      return map;
    }

    List<Object> array(int depth) {
      List<Object> list = new ArrayList<>();
      elements(']', () -> list.add(value(depth + 1)));
      return list;
    }

    /**
     * An object's or an array's elements, from its opening bracket to {@code close}: reads each one
     * with {@code element} (called at its first non-blank character) and checks the commas between.
     */
    private void elements(char close, Runnable element) {
      pos++; // the opening '{' or '['
      skipWhitespace();
      if (peek() == close) {
        pos++;
        return;
      }
      for (;;) {
        skipWhitespace();
        element.run();
        skipWhitespace();
        char c = peek();
        pos++;
        if (c == close) return;
        if (c != ',') {
          pos--;
          throw error("expected ',' or '" + close + "'");
        }
      }
    }

    char peek() {
      if (pos >= text.length()) throw error("unexpected end");
      return text.charAt(pos);
    }

    String string() {
      pos++; // "
      StringBuilder out = new StringBuilder();
      for (;;) {
        if (pos >= text.length()) throw error("unterminated string");
        char c = text.charAt(pos++);
        if (c == '"') return out.toString();
        if (c < 0x20) {
          pos--;
          throw error("control character in a string");
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (pos >= text.length()) throw error("unterminated escape");
        char e = text.charAt(pos++);
        switch (e) {
          case '"' -> out.append('"');
          case '\\' -> out.append('\\');
          case '/' -> out.append('/');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (pos + 4 > text.length()) throw error("short \\u escape");
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = Character.digit(text.charAt(pos++), 16);
              if (digit < 0) throw error("bad \\u escape");
              code = code * 16 + digit;
            }
            out.append((char) code);
          }
          default -> {
            pos--;
            throw error("bad escape \\" + e);
          }
        }
      }
    }

    BigDecimal number() {
      int start = pos;
      if (text.charAt(pos) == '-') pos++;
      if (pos >= text.length()) throw error("bad number");
      if (text.charAt(pos) == '0') {
        pos++;
      } else if (isDigit()) {
        while (isDigit()) pos++;
      } else {
        throw error("bad number");
      }
      if (pos < text.length() && text.charAt(pos) == '.') {
        pos++;
        if (!isDigit()) throw error("bad number: digits expected after '.'");
        while (isDigit()) pos++;
      }
      if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        pos++;
        if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) pos++;
        if (!isDigit()) throw error("bad number: digits expected in the exponent");
        while (isDigit()) pos++;
      }
      try {
        return new BigDecimal(text.substring(start, pos));
      } catch (NumberFormatException | ArithmeticException e) {
        throw error("number out of range");
      }
    }

    boolean isDigit() {
      return pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9';
    }
  }

  /** An unmodifiable deep copy, for values handed to callers (event data, error details). */
  @SuppressWarnings("unchecked")
  public static Object frozen(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put((String) k, frozen(v)));
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object item : list) copy.add(frozen(item));
      return Collections.unmodifiableList(copy);
    }
    return value;
  }
}
