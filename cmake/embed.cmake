# embed.cmake - turn a text file into a C string array (cmake -P).
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
file(WRITE "${OUT}" "/* generated from ${IN}; do not edit */\nconst char sm_cuda_stub_header[] = {${hex}0x00};\n")
