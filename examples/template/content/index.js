console.log('Hello from ${{ values.name }}!');
