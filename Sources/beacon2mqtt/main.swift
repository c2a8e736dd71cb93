import Gateway
print("todo")
