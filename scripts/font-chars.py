# The characters of api/assets/fonts/label-cjk.ttf (see its README): ASCII, GB2312, Big5 level 1.
import sys

chars = set(chr(c) for c in range(0x20, 0x7F))
for hi in range(0xB0, 0xF8):
    for lo in range(0xA1, 0xFF):
        try:
            chars.add(bytes([hi, lo]).decode('gb2312'))
        except UnicodeDecodeError:
            pass
for hi in range(0xA4, 0xC7):
    for lo in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
        try:
            chars.add(bytes([hi, lo]).decode('big5'))
        except UnicodeDecodeError:
            pass
chars |= set('－—·（）【】、，。：；“”‘’《》「」')
sys.stdout.write(''.join(sorted(chars)))
