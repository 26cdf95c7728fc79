"""
A ROS 2 parameter file read the way a node reads it, so a launch checks what will run.

rcl's parser (``rcl_yaml_param_parser``) types values by its own rules (a
quoted scalar is a string, ``yes`` a boolean, ``010`` the integer 8) and
splits the file into sections by node name, with whole-token wildcards
(``/**/arm``, ``/ns/*``); a node takes, in the file's order, each section
that matches its fully qualified name, a later one overriding an earlier.
rclpy's ``parameter_dict_from_yaml_file`` types values as YAML does and does
not match wildcard sections against a node, which is why this module
exists; ``test_parameter_file`` holds it against what rclpy hands a node
started with the file.
"""

# Copyright 2026 The twobone_ik_ros Authors
# Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
# in compliance with the License. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 Unless required by applicable law or agreed to in
# writing, software distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License for the specific
# language governing permissions and limitations under the License.

from __future__ import annotations

from dataclasses import dataclass
import re
import sys
from typing import Any, Dict, List, Tuple

#: the key that ends a node's name and opens its parameters (rcl compares its prefix)
PARAMS_KEY = 'ros__parameters'
_NODE_NAME = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_NAMESPACE_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_TRUE = frozenset(('Y', 'y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'))
_FALSE = frozenset(('N', 'n', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'))
_YAML_NAN = frozenset(('.nan', '.NaN', '.NAN'))
_YAML_INF = re.compile(r'[+-]?\.(?:inf|Inf|INF)')
_INTEGER = re.compile(r'\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)')
_DOUBLE = re.compile(
    r'\s*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?'
    r'|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?'
    r'|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?))')


class ParameterFileError(ValueError):
    """The file is one rcl refuses (the node would not start); the message says where."""


@dataclass(frozen=True)
class Section:
    """One node name of the file and its parameters, as rcl keeps them."""

    #: the name as written, nested keys joined with '/' (``ns/arm``, ``/**/arm``)
    name: str
    parameters: Dict[str, Any]

    def matches(self, fully_qualified_name: str) -> bool:
        """Tell whether a node of this fully qualified name (``/ns/arm``) takes this section."""
        name = self.name if self.name.startswith('/') else '/' + self.name
        # rclpy and rclcpp: '/*' -> '(/\w+)', so '/**' -> '(/\w+)*', matched whole
        pattern = re.escape(name).replace(r'/\*', r'(/\w+)').replace(r'\*', '*')
        return re.fullmatch(pattern, fully_qualified_name, re.ASCII) is not None


def fully_qualified_name(node_name: str, namespace: str = '') -> str:
    """Return ``/namespace/node_name`` as a node reports it (``/node_name`` without one)."""
    namespace = namespace.strip('/')
    return f'/{namespace}/{node_name}' if namespace else f'/{node_name}'


def parameters_for(sections: Tuple[Section, ...], node_name: str,
                   namespace: str = '') -> Dict[str, Any]:
    """Return the parameters the node ``namespace/node_name`` takes from ``sections``."""
    name = fully_qualified_name(node_name, namespace)
    taken: Dict[str, Any] = {}
    for section in sections:
        if section.matches(name):
            taken.update(section.parameters)
    return taken


def parse(text: str) -> Tuple[Section, ...]:
    """Return the sections of a parameter file's ``text``, in rcl's order (ParameterFileError)."""
    import yaml

    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise ParameterFileError(f'is not valid YAML: {error}') from None
    if _has_alias(text):
        raise ParameterFileError('uses a YAML alias, which rcl does not read')
    sections: Dict[str, Dict[str, Any]] = {}
    for document in documents:
        if document is None:
            continue
        if not isinstance(document, yaml.MappingNode):
            raise ParameterFileError('is not a ROS 2 parameter file (a mapping of node names)')
        _node_level(document, '', sections)
    return tuple(Section(name, parameters) for name, parameters in sections.items())


def _has_alias(text: str) -> bool:
    import yaml

    return any(isinstance(event, yaml.AliasEvent)
               for event in yaml.parse(text, Loader=yaml.SafeLoader))


def _node_level(mapping: Any, prefix: str, sections: Dict[str, Dict[str, Any]]) -> None:
    """Walk the keys above ``ros__parameters``: a node's name and its namespaces."""
    import yaml

    for key, value in mapping.value:
        line = key.start_mark.line + 1
        if not isinstance(key, yaml.ScalarNode):
            raise ParameterFileError(f'has a key that is not a name at line {line}')
        if key.value.startswith(PARAMS_KEY):
            if not prefix:
                raise ParameterFileError(
                    f'has no node name before {PARAMS_KEY} at line {line}')
            _check_name(prefix, line)
            if not isinstance(value, yaml.MappingNode):  # rcl: a mapping, even if empty ({})
                raise ParameterFileError(f'has no mapping of parameters after {PARAMS_KEY} '
                                         f'at line {line}')
            parameters: Dict[str, Any] = {}
            _parameter_level(value, '', parameters)
            sections.setdefault(prefix, {}).update(parameters)
        elif isinstance(value, yaml.MappingNode):
            joined = prefix + ('' if not prefix or prefix.endswith('/') else '/') + key.value
            _node_level(value, joined, sections)
        else:
            raise ParameterFileError(f'has a value before {PARAMS_KEY} at line {line}')


def _check_name(name: str, line: int) -> None:
    """Refuse a node name rcl refuses: tokens are names, or the whole-token ``*`` and ``**``."""
    if name in ('/**', '/*'):
        return
    absolute = name if name.startswith('/') else '/' + name
    *namespace, node = absolute[1:].split('/')
    if node not in ('*', '**') and not _NODE_NAME.fullmatch(node):
        raise ParameterFileError(f'has an invalid node name {name!r} at line {line} '
                                 "(a wildcard is a whole token, '*' or '**')")
    for token in namespace:
        if token in ('*', '**'):
            continue
        if not _NAMESPACE_TOKEN.fullmatch(token):
            raise ParameterFileError(f'has an invalid namespace in {name!r} at line {line} '
                                     "(a wildcard is a whole token, '*' or '**')")


def _parameter_level(mapping: Any, prefix: str, parameters: Dict[str, Any]) -> None:
    """Walk the keys below ``ros__parameters``: nested keys are joined with '.'."""
    import yaml

    for key, value in mapping.value:
        line = key.start_mark.line + 1
        if not isinstance(key, yaml.ScalarNode):
            raise ParameterFileError(f'has a key that is not a name at line {line}')
        name = prefix + key.value
        if isinstance(value, yaml.MappingNode):
            _parameter_level(value, name + '.', parameters)
        elif isinstance(value, yaml.SequenceNode):
            parameters[name] = _sequence(value, line)
        else:
            parameters[name] = scalar(value.value, value.style in ("'", '"'), line)


def _sequence(node: Any, line: int) -> List[Any]:
    import yaml

    values: List[Any] = []
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode):
            raise ParameterFileError(f'has a sequence that holds more than values at line {line}')
        value = scalar(item.value, item.style in ("'", '"'), item.start_mark.line + 1)
        if values and type(value) is not type(values[0]):
            raise ParameterFileError(f'has a sequence of mixed types at line {line} '
                                     '(write 1.0, not 1, among doubles)')
        values.append(value)
    return values


def scalar(text: str, quoted: bool = False, line: int = 0) -> Any:
    """Return ``text`` typed as rcl types a value: bool, int, float, else str."""
    if quoted:
        return text
    if text == '':
        raise ParameterFileError(f'has no value at line {line}')
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    integer = _integer(text)
    if integer is not None:
        return integer
    double = _double(text)
    return text if double is None else double


def _integer(text: str) -> Any:
    """C's ``strtoll(text, &end, 0)`` consuming all of ``text``, in range; else None."""
    match = _INTEGER.fullmatch(text)
    if match is None:
        return None
    sign, digits = match.groups()
    if digits[:2] in ('0x', '0X'):
        value = int(digits[2:], 16)
    elif digits.startswith('0'):
        value = int(digits, 8)
    else:
        value = int(digits)
    value = -value if sign == '-' else value
    return value if -2 ** 63 <= value < 2 ** 63 else None


def _double(text: str) -> Any:
    """C's ``strtod`` consuming all of ``text`` (and YAML's ``.inf``, ``.nan``); else None."""
    if text in _YAML_NAN:
        return float('nan')
    if _YAML_INF.fullmatch(text):
        return -float('inf') if text.startswith('-') else float('inf')
    if _DOUBLE.fullmatch(text) is None:
        return None
    body = text.strip()
    unsigned = body.lstrip('+-')
    if unsigned[:2] in ('0x', '0X'):
        value = float.fromhex(body)
    elif unsigned[:3].lower() == 'nan':
        value = float('nan')
    else:
        value = float(body)
    # strtod sets ERANGE on overflow and underflow: rcl then keeps the text
    if value in (float('inf'), float('-inf')) and unsigned[:3].lower() != 'inf':
        return None
    if 0 < abs(value) < sys.float_info.min or (value == 0 and re.search(r'[1-9]', _mantissa(
            unsigned))):
        return None
    return value


def _mantissa(unsigned: str) -> str:
    if unsigned[:2] in ('0x', '0X'):
        return re.split('[pP]', unsigned[2:])[0]
    return re.split('[eE]', unsigned)[0]
