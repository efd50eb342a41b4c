// Generated from contracts/usdt/*.sol by `npm run contracts:compile` (scripts/compile-contracts.ts). Do not edit:
// change the Solidity source and run it again. The local chains' USDT (local/evm-contracts.ts), never
// deployed on a real network: each reproduces its mainnet namesake's interface and behaviour.

export const Bep20Usdt = {
  solcVersion: '0.5.16+commit.9c3226ce.Emscripten.clang',
  abi: [
    {
      "inputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "constructor"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "internalType": "address",
          "name": "owner",
          "type": "address"
        },
        {
          "indexed": true,
          "internalType": "address",
          "name": "spender",
          "type": "address"
        },
        {
          "indexed": false,
          "internalType": "uint256",
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Approval",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "internalType": "address",
          "name": "previousOwner",
          "type": "address"
        },
        {
          "indexed": true,
          "internalType": "address",
          "name": "newOwner",
          "type": "address"
        }
      ],
      "name": "OwnershipTransferred",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "internalType": "address",
          "name": "from",
          "type": "address"
        },
        {
          "indexed": true,
          "internalType": "address",
          "name": "to",
          "type": "address"
        },
        {
          "indexed": false,
          "internalType": "uint256",
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Transfer",
      "type": "event"
    },
    {
      "constant": true,
      "inputs": [
        {
          "internalType": "address",
          "name": "holder",
          "type": "address"
        },
        {
          "internalType": "address",
          "name": "spender",
          "type": "address"
        }
      ],
      "name": "allowance",
      "outputs": [
        {
          "internalType": "uint256",
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "spender",
          "type": "address"
        },
        {
          "internalType": "uint256",
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "approve",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "internalType": "address",
          "name": "account",
          "type": "address"
        }
      ],
      "name": "balanceOf",
      "outputs": [
        {
          "internalType": "uint256",
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "uint256",
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "burn",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "decimals",
      "outputs": [
        {
          "internalType": "uint8",
          "name": "",
          "type": "uint8"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "spender",
          "type": "address"
        },
        {
          "internalType": "uint256",
          "name": "subtractedValue",
          "type": "uint256"
        }
      ],
      "name": "decreaseAllowance",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "getOwner",
      "outputs": [
        {
          "internalType": "address",
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "spender",
          "type": "address"
        },
        {
          "internalType": "uint256",
          "name": "addedValue",
          "type": "uint256"
        }
      ],
      "name": "increaseAllowance",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "uint256",
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "mint",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "name",
      "outputs": [
        {
          "internalType": "string",
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "owner",
      "outputs": [
        {
          "internalType": "address",
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [],
      "name": "renounceOwnership",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "symbol",
      "outputs": [
        {
          "internalType": "string",
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "totalSupply",
      "outputs": [
        {
          "internalType": "uint256",
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "recipient",
          "type": "address"
        },
        {
          "internalType": "uint256",
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "transfer",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "sender",
          "type": "address"
        },
        {
          "internalType": "address",
          "name": "recipient",
          "type": "address"
        },
        {
          "internalType": "uint256",
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "transferFrom",
      "outputs": [
        {
          "internalType": "bool",
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "internalType": "address",
          "name": "newOwner",
          "type": "address"
        }
      ],
      "name": "transferOwnership",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    }
  ] as const,
  bytecode: '0x608060405234801561001057600080fd5b5060408051808201909152600a8082526915195d1a195c881554d160b21b6020909201918252610042916006916100c0565b50604080518082019091526004808252631554d11560e21b602090920191825261006e916005916100c0565b506004805460ff19166012179055600080546001600160a01b0319163390811782556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a361015b565b828054600181600116156101000203166002900490600052602060002090601f016020900481019282601f1061010157805160ff191683800117855561012e565b8280016001018555821561012e579182015b8281111561012e578251825591602001919060010190610113565b5061013a92915061013e565b5090565b61015891905b8082111561013a5760008155600101610144565b90565b610e068061016a6000396000f3fe608060405234801561001057600080fd5b506004361061010b5760003560e01c8063715018a6116100a2578063a0712d6811610071578063a0712d68146102e0578063a457c2d7146102fd578063a9059cbb14610329578063dd62ed3e14610355578063f2fde38b146103835761010b565b8063715018a6146102aa578063893d20e8146102b45780638da5cb5b146102b457806395d89b41146102d85761010b565b8063313ce567116100de578063313ce5671461021d578063395093511461023b57806342966c681461026757806370a08231146102845761010b565b806306fdde0314610110578063095ea7b31461018d57806318160ddd146101cd57806323b872dd146101e7575b600080fd5b6101186103a9565b6040805160208082528351818301528351919283929083019185019080838360005b8381101561015257818101518382015260200161013a565b50505050905090810190601f16801561017f5780820380516001836020036101000a031916815260200191505b509250505060405180910390f35b6101b9600480360360408110156101a357600080fd5b506001600160a01b03813516906020013561043f565b604080519115158252519081900360200190f35b6101d5610455565b60408051918252519081900360200190f35b6101b9600480360360608110156101fd57600080fd5b506001600160a01b0381358116916020810135909116906040013561045b565b6102256104e3565b6040805160ff9092168252519081900360200190f35b6101b96004803603604081101561025157600080fd5b506001600160a01b0381351690602001356104ec565b6101b96004803603602081101561027d57600080fd5b503561057c565b6101d56004803603602081101561029a57600080fd5b50356001600160a01b0316610677565b6102b2610692565b005b6102bc610729565b604080516001600160a01b039092168252519081900360200190f35b610118610738565b6101b9600480360360208110156102f657600080fd5b5035610799565b6101b96004803603604081101561031357600080fd5b506001600160a01b03813516906020013561089a565b6101b96004803603604081101561033f57600080fd5b506001600160a01b03813516906020013561090a565b6101d56004803603604081101561036b57600080fd5b506001600160a01b0381358116916020013516610917565b6102b26004803603602081101561039957600080fd5b50356001600160a01b0316610942565b60068054604080516020601f60026000196101006001881615020190951694909404938401819004810282018101909252828152606093909290918301828280156104355780601f1061040a57610100808354040283529160200191610435565b820191906000526020600020905b81548152906001019060200180831161041857829003601f168201915b5050505050905090565b600061044c338484610a2f565b50600192915050565b60035490565b6000610468848484610b1b565b6001600160a01b0384166000908152600260209081526040808320338452909152902054828110156104cb5760405162461bcd60e51b8152600401808060200182810382526028815260200180610cd86028913960400191505060405180910390fd5b6104d88533858403610a2f565b506001949350505050565b60045460ff1690565b3360009081526002602090815260408083206001600160a01b0386168452909152812054820182811015610567576040805162461bcd60e51b815260206004820152601b60248201527f536166654d6174683a206164646974696f6e206f766572666c6f770000000000604482015290519081900360640190fd5b610572338583610a2f565b5060019392505050565b600080546001600160a01b031633146105ca576040805162461bcd60e51b81526020600482018190526024820152600080516020610d00833981519152604482015290519081900360640190fd5b336000908152600160205260409020548211156106185760405162461bcd60e51b8152600401808060200182810382526022815260200180610d8e6022913960400191505060405180910390fd5b33600081815260016020908152604080832080548790039055600380548790039055805186815290519293927fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef929181900390910190a3506001919050565b6001600160a01b031660009081526001602052604090205490565b6000546001600160a01b031633146106df576040805162461bcd60e51b81526020600482018190526024820152600080516020610d00833981519152604482015290519081900360640190fd5b600080546040516001600160a01b03909116907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908390a3600080546001600160a01b0319169055565b6000546001600160a01b031690565b60058054604080516020601f60026000196101006001881615020190951694909404938401819004810282018101909252828152606093909290918301828280156104355780601f1061040a57610100808354040283529160200191610435565b600080546001600160a01b031633146107e7576040805162461bcd60e51b81526020600482018190526024820152600080516020610d00833981519152604482015290519081900360640190fd5b6003548281011015610840576040805162461bcd60e51b815260206004820152601b60248201527f536166654d6174683a206164646974696f6e206f766572666c6f770000000000604482015290519081900360640190fd5b6003805483019055336000818152600160209081526040808320805487019055805186815290517fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef929181900390910190a3506001919050565b3360009081526002602090815260408083206001600160a01b0386168452909152812054828110156108fd5760405162461bcd60e51b8152600401808060200182810382526025815260200180610d696025913960400191505060405180910390fd5b6105723385858403610a2f565b600061044c338484610b1b565b6001600160a01b03918216600090815260026020908152604080832093909416825291909152205490565b6000546001600160a01b0316331461098f576040805162461bcd60e51b81526020600482018190526024820152600080516020610d00833981519152604482015290519081900360640190fd5b6001600160a01b0381166109d45760405162461bcd60e51b8152600401808060200182810382526026815260200180610cb26026913960400191505060405180910390fd5b600080546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a3600080546001600160a01b0319166001600160a01b0392909216919091179055565b6001600160a01b038316610a745760405162461bcd60e51b8152600401808060200182810382526024815260200180610c8e6024913960400191505060405180910390fd5b6001600160a01b038216610ab95760405162461bcd60e51b8152600401808060200182810382526022815260200180610db06022913960400191505060405180910390fd5b6001600160a01b03808416600081815260026020908152604080832094871680845294825291829020859055815185815291517f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9259281900390910190a3505050565b6001600160a01b038316610b605760405162461bcd60e51b8152600401808060200182810382526025815260200180610c696025913960400191505060405180910390fd5b6001600160a01b038216610ba55760405162461bcd60e51b8152600401808060200182810382526023815260200180610d466023913960400191505060405180910390fd5b6001600160a01b038316600090815260016020526040902054811115610bfc5760405162461bcd60e51b8152600401808060200182810382526026815260200180610d206026913960400191505060405180910390fd5b6001600160a01b03808416600081815260016020908152604080832080548790039055938616808352918490208054860190558351858152935191937fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef929081900390910190a350505056fe42455032303a207472616e736665722066726f6d20746865207a65726f206164647265737342455032303a20617070726f76652066726f6d20746865207a65726f20616464726573734f776e61626c653a206e6577206f776e657220697320746865207a65726f206164647265737342455032303a207472616e7366657220616d6f756e74206578636565647320616c6c6f77616e63654f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e657242455032303a207472616e7366657220616d6f756e7420657863656564732062616c616e636542455032303a207472616e7366657220746f20746865207a65726f206164647265737342455032303a2064656372656173656420616c6c6f77616e63652062656c6f77207a65726f42455032303a206275726e20616d6f756e7420657863656564732062616c616e636542455032303a20617070726f766520746f20746865207a65726f2061646472657373a265627a7a723158202f2f27ef8e12ae5aa4e407881b89af77319b3ecec638226082990aff04ec1f2864736f6c63430005100032',
} as const;

export const TetherUsdt = {
  solcVersion: '0.4.18+commit.9cf6e910.Emscripten.clang',
  abi: [
    {
      "constant": true,
      "inputs": [],
      "name": "name",
      "outputs": [
        {
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "upgraded",
          "type": "address"
        }
      ],
      "name": "deprecate",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "spender",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "approve",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "deprecated",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "evilUser",
          "type": "address"
        }
      ],
      "name": "addBlackList",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "totalSupply",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "from",
          "type": "address"
        },
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transferFrom",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "upgradedAddress",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "name": "balances",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "decimals",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "maximumFee",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "_totalSupply",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [],
      "name": "unpause",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "maker",
          "type": "address"
        }
      ],
      "name": "getBlackListStatus",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "",
          "type": "address"
        },
        {
          "name": "",
          "type": "address"
        }
      ],
      "name": "allowed",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "paused",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "who",
          "type": "address"
        }
      ],
      "name": "balanceOf",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [],
      "name": "pause",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "getOwner",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "owner",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "symbol",
      "outputs": [
        {
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transfer",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "newBasisPoints",
          "type": "uint256"
        },
        {
          "name": "newMaxFee",
          "type": "uint256"
        }
      ],
      "name": "setParams",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "issue",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "redeem",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "holder",
          "type": "address"
        },
        {
          "name": "spender",
          "type": "address"
        }
      ],
      "name": "allowance",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "basisPointsRate",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "name": "isBlackListed",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "clearedUser",
          "type": "address"
        }
      ],
      "name": "removeBlackList",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "MAX_UINT",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "newOwner",
          "type": "address"
        }
      ],
      "name": "transferOwnership",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "blackListedUser",
          "type": "address"
        }
      ],
      "name": "destroyBlackFunds",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "inputs": [
        {
          "name": "initialSupply",
          "type": "uint256"
        },
        {
          "name": "tokenName",
          "type": "string"
        },
        {
          "name": "tokenSymbol",
          "type": "string"
        },
        {
          "name": "tokenDecimals",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "constructor"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "name": "from",
          "type": "address"
        },
        {
          "indexed": true,
          "name": "to",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Transfer",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "name": "owner",
          "type": "address"
        },
        {
          "indexed": true,
          "name": "spender",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Approval",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "Issue",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "Redeem",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "newAddress",
          "type": "address"
        }
      ],
      "name": "Deprecate",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "feeBasisPoints",
          "type": "uint256"
        },
        {
          "indexed": false,
          "name": "maxFee",
          "type": "uint256"
        }
      ],
      "name": "Params",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_blackListedUser",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "_balance",
          "type": "uint256"
        }
      ],
      "name": "DestroyedBlackFunds",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_user",
          "type": "address"
        }
      ],
      "name": "AddedBlackList",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_user",
          "type": "address"
        }
      ],
      "name": "RemovedBlackList",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [],
      "name": "Pause",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [],
      "name": "Unpause",
      "type": "event"
    }
  ] as const,
  bytecode: '0x6060604052600060078190556008556009805460ff1916905534156200002457600080fd5b604051620015b5380380620015b5833981016040528080519190602001805182019190602001805182019190602001805160038054600160a060020a03191633600160a060020a031617905591506000905083805162000089929160200190620000d3565b5060018280516200009f929160200190620000d3565b5060025550506006819055600160a060020a033316600090815260046020526040902055600b805460ff1916905562000178565b828054600181600116156101000203166002900490600052602060002090601f016020900481019282601f106200011657805160ff191683800117855562000146565b8280016001018555821562000146579182015b828111156200014657825182559160200191906001019062000129565b506200015492915062000158565b5090565b6200017591905b808211156200015457600081556001016200015f565b90565b61142d80620001886000396000f30060606040526004361061017c5763ffffffff60e060020a60003504166306fdde0381146101815780630753c30c1461020b578063095ea7b31461022c5780630e136b191461024e5780630ecb93c01461027557806318160ddd1461029457806323b872dd146102b957806326976e3f146102e157806327e235e314610310578063313ce5671461032f57806335390714146103425780633eaaf86b146103555780633f4ba83a1461036857806359bf1abe1461037b5780635c6581651461039a5780635c975abb146103bf57806370a08231146103d25780638456cb59146103f1578063893d20e8146104045780638da5cb5b1461041757806395d89b411461042a578063a9059cbb1461043d578063c0324c771461045f578063cc872b6614610478578063db006a751461048e578063dd62ed3e146104a4578063dd644f72146104c9578063e47d6060146104dc578063e4997dc5146104fb578063e5b5019a1461051a578063f2fde38b1461052d578063f3bdc2281461054c575b600080fd5b341561018c57600080fd5b61019461056b565b60405160208082528190810183818151815260200191508051906020019080838360005b838110156101d05780820151838201526020016101b8565b50505050905090810190601f1680156101fd5780820380516001836020036101000a031916815260200191505b509250505060405180910390f35b341561021657600080fd5b61022a600160a060020a0360043516610609565b005b341561023757600080fd5b61022a600160a060020a036004351660243561069a565b341561025957600080fd5b6102616107d0565b604051901515815260200160405180910390f35b341561028057600080fd5b61022a600160a060020a03600435166107d9565b341561029f57600080fd5b6102a7610859565b60405190815260200160405180910390f35b34156102c457600080fd5b61022a600160a060020a03600435811690602435166044356108de565b34156102ec57600080fd5b6102f4610a2f565b604051600160a060020a03909116815260200160405180910390f35b341561031b57600080fd5b6102a7600160a060020a0360043516610a43565b341561033a57600080fd5b6102a7610a55565b341561034d57600080fd5b6102a7610a5b565b341561036057600080fd5b6102a7610a61565b341561037357600080fd5b61022a610a67565b341561038657600080fd5b610261600160a060020a0360043516610acb565b34156103a557600080fd5b6102a7600160a060020a0360043581169060243516610aed565b34156103ca57600080fd5b610261610b0a565b34156103dd57600080fd5b6102a7600160a060020a0360043516610b13565b34156103fc57600080fd5b61022a610bbd565b341561040f57600080fd5b6102f4610c23565b341561042257600080fd5b6102f4610c32565b341561043557600080fd5b610194610c41565b341561044857600080fd5b61022a600160a060020a0360043516602435610cac565b341561046a57600080fd5b61022a600435602435610d6a565b341561048357600080fd5b61022a600435610e00565b341561049957600080fd5b61022a600435610eb3565b34156104af57600080fd5b6102a7600160a060020a0360043581169060243516610f68565b34156104d457600080fd5b6102a761102c565b34156104e757600080fd5b610261600160a060020a0360043516611032565b341561050657600080fd5b61022a600160a060020a0360043516611047565b341561052557600080fd5b6102a76110c4565b341561053857600080fd5b61022a600160a060020a03600435166110ca565b341561055757600080fd5b61022a600160a060020a0360043516611120565b60008054600181600116156101000203166002900480601f0160208091040260200160405190810160405280929190818152602001828054600181600116156101000203166002900480156106015780601f106105d657610100808354040283529160200191610601565b820191906000526020600020905b8154815290600101906020018083116105e457829003601f168201915b505050505081565b60035433600160a060020a0390811691161461062457600080fd5b600b8054600160ff199091161774ffffffffffffffffffffffffffffffffffffffff001916610100600160a060020a038416021790557fcc358699805e9a8b7f77b522628c7cb9abd07d9efb86b6fb616af1609036a99e81604051600160a060020a03909116815260200160405180910390a150565b6106a460026111e1565b600b5460ff161561073057600b546101009004600160a060020a031663aee92d3333848460405160e060020a63ffffffff8616028152600160a060020a0393841660048201529190921660248201526044810191909152606401600060405180830381600087803b151561071757600080fd5b6102c65a03f1151561072857600080fd5b5050506107cc565b8015806107605750600160a060020a03338116600090815260056020908152604080832093861683529290522054155b151561076b57600080fd5b600160a060020a03338116600081815260056020908152604080832094871680845294909152908190208490557f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9259084905190815260200160405180910390a35b5050565b600b5460ff1681565b60035433600160a060020a039081169116146107f457600080fd5b600160a060020a0381166000908152600a602052604090819020805460ff191660011790557f42e160154868087d6bfdc0ca23d96a1c1cfa32f1b72ba9ba27b69b98a0d819dc90829051600160a060020a03909116815260200160405180910390a150565b600b5460009060ff16156108d657600b546101009004600160a060020a03166318160ddd6000604051602001526040518163ffffffff1660e060020a028152600401602060405180830381600087803b15156108b457600080fd5b6102c65a03f115156108c557600080fd5b5050506040518051905090506108db565b506006545b90565b60095460009060ff16156108f157600080fd5b600160a060020a0384166000908152600a602052604090205460ff161561091757600080fd5b600b5460ff16156109aa57600b546101009004600160a060020a0316638b477adb3386868660405160e060020a63ffffffff8716028152600160a060020a0394851660048201529284166024840152921660448201526064810191909152608401600060405180830381600087803b151561099157600080fd5b6102c65a03f115156109a257600080fd5b505050610a29565b6109b460036111e1565b50600160a060020a0380841660009081526005602090815260408083203390941683529290522054600019811015610a1e576109f6818363ffffffff6111f416565b600160a060020a03808616600090815260056020908152604080832033909416835292905220555b610a29848484611206565b50505050565b600b546101009004600160a060020a031681565b60046020526000908152604090205481565b60025481565b60085481565b60065481565b60035433600160a060020a03908116911614610a8257600080fd5b60095460ff161515610a9357600080fd5b6009805460ff191690557f7805862f689e2f13df9f062ff482ad3ad112aca9e0847911ed832e158c525b3360405160405180910390a1565b600160a060020a0381166000908152600a602052604090205460ff165b919050565b600560209081526000928352604080842090915290825290205481565b60095460ff1681565b600b5460009060ff1615610ba157600b546101009004600160a060020a03166370a082318360006040516020015260405160e060020a63ffffffff8416028152600160a060020a039091166004820152602401602060405180830381600087803b1515610b7f57600080fd5b6102c65a03f11515610b9057600080fd5b505050604051805190509050610ae8565b50600160a060020a031660009081526004602052604090205490565b60035433600160a060020a03908116911614610bd857600080fd5b60095460ff1615610be857600080fd5b6009805460ff191660011790557f6985a02210a168e66602d3235cb6db0e70f92b3ba4d376a33c0f3d9434bff62560405160405180910390a1565b600354600160a060020a031690565b600354600160a060020a031681565b60018054600181600116156101000203166002900480601f0160208091040260200160405190810160405280929190818152602001828054600181600116156101000203166002900480156106015780601f106105d657610100808354040283529160200191610601565b60095460ff1615610cbc57600080fd5b600160a060020a0333166000908152600a602052604090205460ff1615610ce257600080fd5b600b5460ff1615610d5557600b546101009004600160a060020a0316636e18980a33848460405160e060020a63ffffffff8616028152600160a060020a0393841660048201529190921660248201526044810191909152606401600060405180830381600087803b151561071757600080fd5b610d5f60026111e1565b6107cc338383611206565b60035433600160a060020a03908116911614610d8557600080fd5b60148210610d9257600080fd5b60328110610d9f57600080fd5b6007829055600254610dbb908290600a0a63ffffffff61138116565b60088190556007547fb044a1e409eac5c48e5af22d4af52670dd1a99059537a78b31b48c6500a6354e9160405191825260208201526040908101905180910390a15050565b60035433600160a060020a03908116911614610e1b57600080fd5b60065481810111610e2b57600080fd5b600354600160a060020a031660009081526004602052604090205481810111610e5357600080fd5b600354600160a060020a03166000908152600460205260409081902080548301905560068054830190557fcb8241adb0c3fdb35b70c24ce35c5eb0c17af7431c99f827d44a445ca624176a9082905190815260200160405180910390a150565b60035433600160a060020a03908116911614610ece57600080fd5b60065481901015610ede57600080fd5b600354600160a060020a031660009081526004602052604090205481901015610f0657600080fd5b600680548290039055600354600160a060020a031660009081526004602052604090819020805483900390557f702d5967f45f6513a38ffc42d6ba9bf230bd40e8f53b16363c7eb4fd2deb9a449082905190815260200160405180910390a150565b600b5460009060ff1615610ffe57600b546101009004600160a060020a031663dd62ed3e848460006040516020015260405160e060020a63ffffffff8516028152600160a060020a03928316600482015291166024820152604401602060405180830381600087803b1515610fdc57600080fd5b6102c65a03f11515610fed57600080fd5b505050604051805190509050611026565b50600160a060020a038083166000908152600560209081526040808320938516835292905220545b92915050565b60075481565b600a6020526000908152604090205460ff1681565b60035433600160a060020a0390811691161461106257600080fd5b600160a060020a0381166000908152600a602052604090819020805460ff191690557fd7e9ec6e6ecd65492dce6bf513cd6867560d49544421d0783ddf06e76c24470c90829051600160a060020a03909116815260200160405180910390a150565b60001981565b60035433600160a060020a039081169116146110e557600080fd5b600160a060020a0381161561111d576003805473ffffffffffffffffffffffffffffffffffffffff1916600160a060020a0383161790555b50565b60035460009033600160a060020a0390811691161461113e57600080fd5b600160a060020a0382166000908152600a602052604090205460ff16151561116557600080fd5b50600160a060020a03811660009081526004602052604081208054919055600654611196908263ffffffff6111f416565b6006557f61e6e66b0d6339b2980aecc6ccc0039736791f0ccde9ed512e789a7fbdd698c68282604051600160a060020a03909216825260208201526040908101905180910390a15050565b6004602082020136101561111d57600080fd5b60008282111561120057fe5b50900390565b600080611212836113b7565b9150611224838363ffffffff6111f416565b600160a060020a038616600090815260046020526040902054909150611250908463ffffffff6111f416565b600160a060020a038087166000908152600460205260408082209390935590861681522054611285908263ffffffff6113f216565b600160a060020a03851660009081526004602052604081209190915582111561133357600354600160a060020a03166000908152600460205260409020546112d3908363ffffffff6113f216565b60038054600160a060020a0390811660009081526004602052604090819020939093559054811691908716907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9085905190815260200160405180910390a35b83600160a060020a031685600160a060020a03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8360405190815260200160405180910390a35050505050565b60008083151561139457600091506113b0565b508282028284828115156113a457fe5b04146113ac57fe5b8091505b5092915050565b6000806127106113d26007548561138190919063ffffffff16565b8115156113db57fe5b049050600854811115611026575060085492915050565b6000828201838110156113ac57fe00a165627a7a723058201cd2f340d4d216c459bb6f028d1f6df5d8d0a2dd652ea9003fe1255c548e84f60029',
} as const;

export const UpgradedUsdt = {
  solcVersion: '0.4.18+commit.9cf6e910.Emscripten.clang',
  abi: [
    {
      "constant": true,
      "inputs": [],
      "name": "name",
      "outputs": [
        {
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "spender",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "approve",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "evilUser",
          "type": "address"
        }
      ],
      "name": "addBlackList",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "totalSupply",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "from",
          "type": "address"
        },
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transferFrom",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "who",
          "type": "address"
        }
      ],
      "name": "balances",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "decimals",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "maximumFee",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "_totalSupply",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [],
      "name": "unpause",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "legacyContract",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "maker",
          "type": "address"
        }
      ],
      "name": "getBlackListStatus",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "paused",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "from",
          "type": "address"
        },
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transferByLegacy",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "who",
          "type": "address"
        }
      ],
      "name": "balanceOf",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [],
      "name": "pause",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "getOwner",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "spender",
          "type": "address"
        },
        {
          "name": "from",
          "type": "address"
        },
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transferFromByLegacy",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "owner",
      "outputs": [
        {
          "name": "",
          "type": "address"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "symbol",
      "outputs": [
        {
          "name": "",
          "type": "string"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "to",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "transfer",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "holder",
          "type": "address"
        },
        {
          "name": "spender",
          "type": "address"
        },
        {
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "approveByLegacy",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "newBasisPoints",
          "type": "uint256"
        },
        {
          "name": "newMaxFee",
          "type": "uint256"
        }
      ],
      "name": "setParams",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "issue",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "redeem",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "holder",
          "type": "address"
        },
        {
          "name": "spender",
          "type": "address"
        }
      ],
      "name": "allowance",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "basisPointsRate",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [
        {
          "name": "who",
          "type": "address"
        }
      ],
      "name": "isBlackListed",
      "outputs": [
        {
          "name": "",
          "type": "bool"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "clearedUser",
          "type": "address"
        }
      ],
      "name": "removeBlackList",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": true,
      "inputs": [],
      "name": "MAX_UINT",
      "outputs": [
        {
          "name": "",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "view",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "newOwner",
          "type": "address"
        }
      ],
      "name": "transferOwnership",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "constant": false,
      "inputs": [
        {
          "name": "blackListedUser",
          "type": "address"
        }
      ],
      "name": "destroyBlackFunds",
      "outputs": [],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "function"
    },
    {
      "inputs": [
        {
          "name": "legacy",
          "type": "address"
        },
        {
          "name": "tokenName",
          "type": "string"
        },
        {
          "name": "tokenSymbol",
          "type": "string"
        },
        {
          "name": "tokenDecimals",
          "type": "uint256"
        }
      ],
      "payable": false,
      "stateMutability": "nonpayable",
      "type": "constructor"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "name": "from",
          "type": "address"
        },
        {
          "indexed": true,
          "name": "to",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Transfer",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": true,
          "name": "owner",
          "type": "address"
        },
        {
          "indexed": true,
          "name": "spender",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "value",
          "type": "uint256"
        }
      ],
      "name": "Approval",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "Issue",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "amount",
          "type": "uint256"
        }
      ],
      "name": "Redeem",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "feeBasisPoints",
          "type": "uint256"
        },
        {
          "indexed": false,
          "name": "maxFee",
          "type": "uint256"
        }
      ],
      "name": "Params",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_blackListedUser",
          "type": "address"
        },
        {
          "indexed": false,
          "name": "_balance",
          "type": "uint256"
        }
      ],
      "name": "DestroyedBlackFunds",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_user",
          "type": "address"
        }
      ],
      "name": "AddedBlackList",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [
        {
          "indexed": false,
          "name": "_user",
          "type": "address"
        }
      ],
      "name": "RemovedBlackList",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [],
      "name": "Pause",
      "type": "event"
    },
    {
      "anonymous": false,
      "inputs": [],
      "name": "Unpause",
      "type": "event"
    }
  ] as const,
  bytecode: '0x606060405234156200001057600080fd5b6040516200175c3803806200175c833981016040528080519190602001805182019190602001805182019190602001805160038054600160a060020a03338116600160a060020a0319928316179092556004805492891692909116919091179055915060009050808480516200008b9291602001906200022f565b506001838051620000a19291602001906200022f565b5050600281905583600160a060020a038116633eaaf86b6000604051602001526040518163ffffffff167c0100000000000000000000000000000000000000000000000000000000028152600401602060405180830381600087803b15156200010957600080fd5b6102c65a03f115156200011b57600080fd5b505050604051805160055550600160a060020a03811663dd644f726000604051602001526040518163ffffffff167c0100000000000000000000000000000000000000000000000000000000028152600401602060405180830381600087803b15156200018757600080fd5b6102c65a03f115156200019957600080fd5b505050604051805160065550600160a060020a03811663353907146000604051602001526040518163ffffffff167c0100000000000000000000000000000000000000000000000000000000028152600401602060405180830381600087803b15156200020557600080fd5b6102c65a03f115156200021757600080fd5b505050604051805160075550620002d4945050505050565b828054600181600116156101000203166002900490600052602060002090601f016020900481019282601f106200027257805160ff1916838001178555620002a2565b82800160010185558215620002a2579182015b82811115620002a257825182559160200191906001019062000285565b50620002b0929150620002b4565b5090565b620002d191905b80821115620002b05760008155600101620002bb565b90565b61147880620002e46000396000f30060606040526004361061017c5763ffffffff60e060020a60003504166306fdde038114610181578063095ea7b31461020b5780630ecb93c01461022f57806318160ddd1461024e57806323b872dd1461027357806327e235e31461029b578063313ce567146102ba57806335390714146102cd5780633eaaf86b146102e05780633f4ba83a146102f3578063452c57011461030657806359bf1abe146103355780635c975abb146103685780636e18980a1461037b57806370a08231146103a35780638456cb59146103c2578063893d20e8146103d55780638b477adb146103e85780638da5cb5b1461041657806395d89b4114610429578063a9059cbb1461043c578063aee92d331461045e578063c0324c7714610486578063cc872b661461049f578063db006a75146104b5578063dd62ed3e146104cb578063dd644f72146104f0578063e47d606014610503578063e4997dc514610522578063e5b5019a14610541578063f2fde38b14610554578063f3bdc22814610573575b600080fd5b341561018c57600080fd5b610194610592565b60405160208082528190810183818151815260200191508051906020019080838360005b838110156101d05780820151838201526020016101b8565b50505050905090810190601f1680156101fd5780820380516001836020036101000a031916815260200191505b509250505060405180910390f35b341561021657600080fd5b61022d600160a060020a0360043516602435610630565b005b341561023a57600080fd5b61022d600160a060020a036004351661063f565b341561025957600080fd5b6102616106c8565b60405190815260200160405180910390f35b341561027e57600080fd5b61022d600160a060020a03600435811690602435166044356106ce565b34156102a657600080fd5b610261600160a060020a036004351661070c565b34156102c557600080fd5b61026161071d565b34156102d857600080fd5b610261610723565b34156102eb57600080fd5b610261610729565b34156102fe57600080fd5b61022d61072f565b341561031157600080fd5b610319610793565b604051600160a060020a03909116815260200160405180910390f35b341561034057600080fd5b610354600160a060020a03600435166107a2565b604051901515815260200160405180910390f35b341561037357600080fd5b6103546107ad565b341561038657600080fd5b61022d600160a060020a03600435811690602435166044356107b6565b34156103ae57600080fd5b610261600160a060020a03600435166107f4565b34156103cd57600080fd5b61022d6108a9565b34156103e057600080fd5b61031961090f565b34156103f357600080fd5b61022d600160a060020a036004358116906024358116906044351660643561091e565b341561042157600080fd5b610319610978565b341561043457600080fd5b610194610987565b341561044757600080fd5b61022d600160a060020a03600435166024356109f2565b341561046957600080fd5b61022d600160a060020a0360043581169060243516604435610a20565b341561049157600080fd5b61022d600435602435610a46565b34156104aa57600080fd5b61022d600435610adc565b34156104c057600080fd5b61022d600435610ba4565b34156104d657600080fd5b610261600160a060020a0360043581169060243516610c6e565b34156104fb57600080fd5b610261610d4c565b341561050e57600080fd5b610354600160a060020a0360043516610d52565b341561052d57600080fd5b61022d600160a060020a0360043516610dea565b341561054c57600080fd5b610261610e70565b341561055f57600080fd5b61022d600160a060020a0360043516610e76565b341561057e57600080fd5b61022d600160a060020a0360043516610ecc565b60008054600181600116156101000203166002900480601f0160208091040260200160405190810160405280929190818152602001828054600181600116156101000203166002900480156106285780601f106105fd57610100808354040283529160200191610628565b820191906000526020600020905b81548152906001019060200180831161060b57829003601f168201915b505050505081565b61063b338383610f96565b5050565b60035433600160a060020a0390811691161461065a57600080fd5b61066381611037565b600160a060020a0381166000908152600b602052604090819020805460ff191660011790557f42e160154868087d6bfdc0ca23d96a1c1cfa32f1b72ba9ba27b69b98a0d819dc90829051600160a060020a03909116815260200160405180910390a150565b60055490565b60085460ff16156106de57600080fd5b6106e783610d52565b156106f157600080fd5b6106fc833383611194565b610707838383611218565b505050565b6000610717826107f4565b92915050565b60025481565b60075481565b60055481565b60035433600160a060020a0390811691161461074a57600080fd5b60085460ff16151561075b57600080fd5b6008805460ff191690557f7805862f689e2f13df9f062ff482ad3ad112aca9e0847911ed832e158c525b3360405160405180910390a1565b600454600160a060020a031681565b600061071782610d52565b60085460ff1681565b60045433600160a060020a039081169116146107d157600080fd5b60085460ff16156107e157600080fd5b6107ea83610d52565b156106fc57600080fd5b600160a060020a03811660009081526009602052604081205460ff1661088d57600454600160a060020a03166327e235e38360006040516020015260405160e060020a63ffffffff8416028152600160a060020a039091166004820152602401602060405180830381600087803b151561086d57600080fd5b6102c65a03f1151561087e57600080fd5b50505060405180519050610717565b50600160a060020a03166000908152600a602052604090205490565b60035433600160a060020a039081169116146108c457600080fd5b60085460ff16156108d457600080fd5b6008805460ff191660011790557f6985a02210a168e66602d3235cb6db0e70f92b3ba4d376a33c0f3d9434bff62560405160405180910390a1565b600354600160a060020a031690565b60045433600160a060020a0390811691161461093957600080fd5b60085460ff161561094957600080fd5b61095283610d52565b1561095c57600080fd5b610967838583611194565b610972838383611218565b50505050565b600354600160a060020a031681565b60018054600181600116156101000203166002900480601f0160208091040260200160405190810160405280929190818152602001828054600181600116156101000203166002900480156106285780601f106105fd57610100808354040283529160200191610628565b60085460ff1615610a0257600080fd5b610a0b33610d52565b15610a1557600080fd5b61063b338383611218565b60045433600160a060020a03908116911614610a3b57600080fd5b610707838383610f96565b60035433600160a060020a03908116911614610a6157600080fd5b60148210610a6e57600080fd5b60328110610a7b57600080fd5b6006829055600254610a97908290600a0a63ffffffff6113ba16565b60078190556006547fb044a1e409eac5c48e5af22d4af52670dd1a99059537a78b31b48c6500a6354e9160405191825260208201526040908101905180910390a15050565b60035433600160a060020a03908116911614610af757600080fd5b600354610b0c90600160a060020a0316611037565b60055481810111610b1c57600080fd5b600354600160a060020a03166000908152600a602052604090205481810111610b4457600080fd5b600354600160a060020a03166000908152600a60205260409081902080548301905560058054830190557fcb8241adb0c3fdb35b70c24ce35c5eb0c17af7431c99f827d44a445ca624176a9082905190815260200160405180910390a150565b60035433600160a060020a03908116911614610bbf57600080fd5b600354610bd490600160a060020a0316611037565b60055481901015610be457600080fd5b600354600160a060020a03166000908152600a602052604090205481901015610c0c57600080fd5b600580548290039055600354600160a060020a03166000908152600a602052604090819020805483900390557f702d5967f45f6513a38ffc42d6ba9bf230bd40e8f53b16363c7eb4fd2deb9a449082905190815260200160405180910390a150565b600160a060020a038083166000908152600c6020908152604080832093851683529290529081205460ff16610d1e57600454600160a060020a0316635c658165848460006040516020015260405160e060020a63ffffffff8516028152600160a060020a03928316600482015291166024820152604401602060405180830381600087803b1515610cfe57600080fd5b6102c65a03f11515610d0f57600080fd5b50505060405180519050610d45565b600160a060020a038084166000908152600d60209081526040808320938616835292905220545b9392505050565b60065481565b600160a060020a03811660009081526009602052604081205460ff16610dcb57600454600160a060020a031663e47d60608360006040516020015260405160e060020a63ffffffff8416028152600160a060020a039091166004820152602401602060405180830381600087803b151561086d57600080fd5b50600160a060020a03166000908152600b602052604090205460ff1690565b60035433600160a060020a03908116911614610e0557600080fd5b610e0e81611037565b600160a060020a0381166000908152600b602052604090819020805460ff191690557fd7e9ec6e6ecd65492dce6bf513cd6867560d49544421d0783ddf06e76c24470c90829051600160a060020a03909116815260200160405180910390a150565b60001981565b60035433600160a060020a03908116911614610e9157600080fd5b600160a060020a03811615610ec9576003805473ffffffffffffffffffffffffffffffffffffffff1916600160a060020a0383161790555b50565b60035460009033600160a060020a03908116911614610eea57600080fd5b610ef382611037565b600160a060020a0382166000908152600b602052604090205460ff161515610f1a57600080fd5b50600160a060020a0381166000908152600a602052604081208054919055600554610f4b908263ffffffff6113f016565b6005557f61e6e66b0d6339b2980aecc6ccc0039736791f0ccde9ed512e789a7fbdd698c68282604051600160a060020a03909216825260208201526040908101905180910390a15050565b801580610faa5750610fa88383610c6e565b155b1515610fb557600080fd5b600160a060020a038084166000818152600c60209081526040808320948716808452948252808320805460ff19166001179055838352600d8252808320858452909152908190208490557f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b9259084905190815260200160405180910390a3505050565b600160a060020a03811660009081526009602052604081205460ff16151561063b5750600454600160a060020a0316806327e235e38360006040516020015260405160e060020a63ffffffff8416028152600160a060020a039091166004820152602401602060405180830381600087803b15156110b457600080fd5b6102c65a03f115156110c557600080fd5b5050506040518051600160a060020a038085166000908152600a602052604080822093909355908416925063e47d606091859190516020015260405160e060020a63ffffffff8416028152600160a060020a039091166004820152602401602060405180830381600087803b151561113c57600080fd5b6102c65a03f1151561114d57600080fd5b5050506040518051600160a060020a0384166000908152600b60209081526040808320805494151560ff199586161790556009909152902080549091166001179055505050565b60006111a08484610c6e565b905060001981101561097257600160a060020a038085166000908152600c60209081526040808320938716835292905220805460ff191660011790556111ec818363ffffffff6113f016565b600160a060020a038086166000908152600d602090815260408083209388168352929052205550505050565b60008061122485611037565b61122d84611037565b61123683611402565b9150611248838363ffffffff6113f016565b600160a060020a0386166000908152600a6020526040902054909150611274908463ffffffff6113f016565b600160a060020a038087166000908152600a602052604080822093909355908616815220546112a9908263ffffffff61143d16565b600160a060020a0385166000908152600a602052604081209190915582111561136c576003546112e190600160a060020a0316611037565b600354600160a060020a03166000908152600a602052604090205461130c908363ffffffff61143d16565b60038054600160a060020a039081166000908152600a602052604090819020939093559054811691908716907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9085905190815260200160405180910390a35b83600160a060020a031685600160a060020a03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8360405190815260200160405180910390a35050505050565b6000808315156113cd57600091506113e9565b508282028284828115156113dd57fe5b04146113e557fe5b8091505b5092915050565b6000828211156113fc57fe5b50900390565b60008061271061141d600654856113ba90919063ffffffff16565b81151561142657fe5b049050600754811115610717575060075492915050565b6000828201838110156113e557fe00a165627a7a723058203a0afdec5344969115c5fa7d677cfb109b15409ae6e328f9777b414d450abfe60029',
} as const;
